/**
 * A loopback server speaking what mail_a needs of Google, as documented: the consent screen
 * (`/o/oauth2/v2/auth`, which "consents" at once by redirecting back with a code, or with
 * `error=access_denied` when told to), the token endpoint (`/token`: the authorization code grant
 * with PKCE, checking the S256 of the verifier against the challenge, the redirect URI and the
 * client secret; and the refresh grant) and the Gmail REST endpoints a mailbox is read and sent
 * through, each refusing any but the live access token with 401. Scripted per test: the mailbox's
 * messages, how long tokens last, revoking the live access token.
 */
import { createHash } from "node:crypto"
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"

export const clientId = "node-client.apps.example"
export const clientSecret = "client-secret-never-shown"

export interface FakeMail {
  readonly id: string
  readonly from: string
  readonly to?: string
  readonly subject: string
  readonly date: string
  readonly text: string
  readonly unread?: boolean
  readonly labels?: ReadonlyArray<string>
  /** The body as HTML only (no text/plain part), as many newsletters are. */
  readonly html?: string
}

export interface TokenCall {
  readonly grant: string
  readonly form: Readonly<Record<string, string>>
}

interface Grant {
  readonly challenge: string
  readonly method: string
  readonly redirectUri: string
}

const b64url = (text: string) => Buffer.from(text, "utf8").toString("base64url")

export const startGoogle = async () => {
  let serial = 0
  const codes = new Map<string, Grant>()
  const state = {
    /** The mailbox, newest first. */
    mailbox: [] as Array<FakeMail>,
    /** What the consent screen does: grant at once, or answer as a person who declined. */
    consent: "grant" as "grant" | "deny",
    /** `expires_in` of each access token issued. */
    expiresIn: 3600,
    address: "ada@gmail.example",
    liveAccess: new Set<string>(),
    refreshTokens: new Set<string>(),
    /** While set, a listing of the mailbox waits for it: a sync that stays running until the test lets it go. */
    listGate: null as Promise<void> | null
  }
  /** The query of each consent screen visit, each token call, each Gmail request and each sent message (decoded). */
  const consents: Array<URLSearchParams> = []
  const tokenCalls: Array<TokenCall> = []
  const apiCalls: Array<{ readonly method: string; readonly path: string; readonly authorized: boolean }> = []
  const sent: Array<string> = []

  const issue = () => {
    serial += 1
    const access = `ya29.access-${serial}`
    state.liveAccess.add(access)
    return access
  }

  const json = (response: ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, { "content-type": "application/json" })
    response.end(JSON.stringify(body))
  }

  const token = (form: Record<string, string>, response: ServerResponse) => {
    tokenCalls.push({ grant: form.grant_type ?? "", form })
    if (form.client_id !== clientId || form.client_secret !== clientSecret)
      return json(response, 401, { error: "invalid_client" })
    if (form.grant_type === "authorization_code") {
      const grant = codes.get(form.code ?? "")
      codes.delete(form.code ?? "")
      if (grant === undefined)
        return json(response, 400, { error: "invalid_grant", error_description: "Malformed auth code." })
      if (grant.redirectUri !== form.redirect_uri) return json(response, 400, { error: "redirect_uri_mismatch" })
      const s256 = createHash("sha256")
        .update(form.code_verifier ?? "")
        .digest("base64url")
      if (grant.method !== "S256" || s256 !== grant.challenge)
        return json(response, 400, { error: "invalid_grant", error_description: "Invalid code verifier." })
      const refresh = `1//refresh-${serial + 1}`
      state.refreshTokens.add(refresh)
      return json(response, 200, {
        access_token: issue(),
        refresh_token: refresh,
        expires_in: state.expiresIn,
        token_type: "Bearer",
        scope: "gmail"
      })
    }
    if (form.grant_type === "refresh_token") {
      if (!state.refreshTokens.has(form.refresh_token ?? ""))
        return json(response, 400, { error: "invalid_grant", error_description: "Token has been expired or revoked." })
      return json(response, 200, { access_token: issue(), expires_in: state.expiresIn, token_type: "Bearer" })
    }
    return json(response, 400, { error: "unsupported_grant_type" })
  }

  const message = (mail: FakeMail) => ({
    id: mail.id,
    threadId: mail.id,
    labelIds: [...(mail.labels ?? ["INBOX"]), ...(mail.unread === true ? ["UNREAD"] : [])],
    snippet: mail.text.slice(0, 100),
    internalDate: String(Date.parse(mail.date)),
    payload: {
      mimeType: "multipart/alternative",
      headers: [
        { name: "From", value: mail.from },
        { name: "To", value: mail.to ?? state.address },
        { name: "Subject", value: mail.subject },
        { name: "Date", value: new Date(mail.date).toUTCString() }
      ],
      body: { size: 0 },
      parts:
        mail.html !== undefined
          ? [
              {
                partId: "0",
                mimeType: "text/html",
                filename: "",
                body: { size: mail.html.length, data: b64url(mail.html) }
              },
              {
                partId: "1",
                mimeType: "application/pdf",
                filename: "invoice.pdf",
                body: { size: 10, attachmentId: "att-1" }
              }
            ]
          : [
              {
                partId: "0",
                mimeType: "text/plain",
                filename: "",
                body: { size: mail.text.length, data: b64url(mail.text) }
              },
              {
                partId: "1",
                mimeType: "text/html",
                filename: "",
                body: { size: 0, data: b64url(`<p>${mail.text}</p>`) }
              }
            ]
    }
  })

  const gmail = async (request: IncomingMessage, url: URL, body: string, response: ServerResponse) => {
    const bearer = (request.headers.authorization ?? "").replace(/^Bearer /, "")
    const authorized = state.liveAccess.has(bearer)
    apiCalls.push({ method: request.method ?? "", path: url.pathname, authorized })
    if (!authorized)
      return json(response, 401, {
        error: { code: 401, message: "Request had invalid authentication credentials.", status: "UNAUTHENTICATED" }
      })
    const rest = url.pathname.replace(/^\/gmail\/v1\/users\/me\//, "")
    if (rest === "profile")
      return json(response, 200, { emailAddress: state.address, messagesTotal: state.mailbox.length })
    if (rest === "messages" && request.method === "GET") {
      if (state.listGate !== null) await state.listGate
      const label = url.searchParams.get("labelIds")
      const unreadOnly = (url.searchParams.get("q") ?? "").includes("is:unread")
      const matching = state.mailbox.filter(
        (mail) =>
          (label === null || (mail.labels ?? ["INBOX"]).includes(label)) && (!unreadOnly || mail.unread === true)
      )
      const max = Number(url.searchParams.get("maxResults") ?? "100")
      const page = matching.slice(0, max).map((mail) => ({ id: mail.id, threadId: mail.id }))
      return json(
        response,
        200,
        page.length === 0 ? { resultSizeEstimate: 0 } : { messages: page, resultSizeEstimate: matching.length }
      )
    }
    if (rest === "messages/send" && request.method === "POST") {
      const raw = (JSON.parse(body) as { raw?: string }).raw ?? ""
      sent.push(Buffer.from(raw, "base64url").toString("utf8"))
      return json(response, 200, { id: `sent-${sent.length}`, threadId: `sent-${sent.length}`, labelIds: ["SENT"] })
    }
    const found = rest.startsWith("messages/")
      ? state.mailbox.find((mail) => mail.id === decodeURIComponent(rest.slice("messages/".length)))
      : undefined
    if (found !== undefined) return json(response, 200, message(found))
    return json(response, 404, {
      error: { code: 404, message: "Requested entity was not found.", status: "NOT_FOUND" }
    })
  }

  const server: Server = createServer(async (request, response) => {
    const chunks: Array<Buffer> = []
    for await (const chunk of request) chunks.push(chunk as Buffer)
    const body = Buffer.concat(chunks).toString("utf8")
    const url = new URL(request.url ?? "/", "http://127.0.0.1")
    if (url.pathname === "/o/oauth2/v2/auth") {
      consents.push(url.searchParams)
      const back = new URL(url.searchParams.get("redirect_uri") ?? "")
      back.searchParams.set("state", url.searchParams.get("state") ?? "")
      if (state.consent === "deny") {
        back.searchParams.set("error", "access_denied")
      } else {
        const code = `4/code-${codes.size + consents.length}`
        codes.set(code, {
          challenge: url.searchParams.get("code_challenge") ?? "",
          method: url.searchParams.get("code_challenge_method") ?? "",
          redirectUri: url.searchParams.get("redirect_uri") ?? ""
        })
        back.searchParams.set("code", code)
      }
      response.writeHead(302, { location: back.toString() })
      return response.end()
    }
    if (url.pathname === "/token" && request.method === "POST")
      return token(Object.fromEntries(new URLSearchParams(body)), response)
    if (url.pathname.startsWith("/gmail/v1/users/me/")) return gmail(request, url, body, response)
    json(response, 404, { error: "not_found" })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    url: base,
    settings: {
      mailAAuthUrl: `${base}/o/oauth2/v2/auth`,
      mailATokenUrl: `${base}/token`,
      mailAApiUrl: `${base}/gmail/v1`
    },
    /** The same as a node process's environment, with the client's id and secret. */
    env: {
      MAIL_A_AUTH_URL: `${base}/o/oauth2/v2/auth`,
      MAIL_A_TOKEN_URL: `${base}/token`,
      MAIL_A_API_URL: `${base}/gmail/v1`,
      MAIL_A_CLIENT_ID: clientId,
      MAIL_A_CLIENT_SECRET: clientSecret
    },
    state,
    consents,
    tokenCalls,
    apiCalls,
    sent,
    /** Every access token issued so far stops working, as when Google revokes or expires them early. */
    revokeAccess: () => state.liveAccess.clear(),
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

export type FakeGoogle = Awaited<ReturnType<typeof startGoogle>>
