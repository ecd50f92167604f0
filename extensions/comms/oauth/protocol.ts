/**
 * OAuth 2.0 as mail_a (Google) and plugin providers speak it (RFC 6749's authorization code grant
 * with RFC 7636's PKCE, method S256): the consent URL, the code exchanged for tokens, and a
 * refresh. The client secret and the tokens travel only in the form bodies sent to the token
 * endpoint; failures quote the endpoint's `error` code and never a token. The token calls go through the node's outbound
 * HTTP (kernel/http/outbound.ts) handed in by the caller, so a plugin's token endpoint is held to
 * the same address policy as its `auth.fetch`, and every answer is bounded in bytes and time.
 */
import { createHash, randomBytes } from "node:crypto"
import type { OutboundHttpRequest, OutboundResponse } from "../../../kernel/extensions/network.ts"
import { field } from "../chat-post.ts"

const defaultService = "mail_a's token endpoint"

/**
 * An unguessable value for `state` or the PKCE verifier: 32 random bytes, base64url (43 characters, inside RFC 7636's
 * 43..128).
 */
export const randomToken = () => randomBytes(32).toString("base64url")

export const challengeOf = (verifier: string) => createHash("sha256").update(verifier).digest("base64url")

export interface Client {
  readonly id: string
  readonly secret: string
}

export interface ConsentRequest {
  readonly redirectUri: string
  readonly state: string
  readonly verifier: string
  readonly scopes: ReadonlyArray<string>
  /** Parameters a provider asks for besides RFC 6749's and RFC 7636's. */
  readonly extra?: Readonly<Record<string, string>>
}

/** The consent screen's address for any provider speaking the authorization code grant with PKCE S256. */
export const consentUrl = (authUrl: string, client: Client, request: ConsentRequest) => {
  const url = new URL(authUrl)
  url.search = new URLSearchParams({
    response_type: "code",
    client_id: client.id,
    redirect_uri: request.redirectUri,
    scope: request.scopes.join(" "),
    state: request.state,
    code_challenge: challengeOf(request.verifier),
    code_challenge_method: "S256",
    ...request.extra
  }).toString()
  return url.toString()
}

/** The tokens a connection keeps, sealed as its secret; `expiresAt` is epoch milliseconds as text. */
export interface Tokens {
  readonly accessToken: string
  readonly refreshToken: string
  readonly expiresAt: string
}

/** The node's outbound HTTP under the policy the caller chose (kernel/http/outbound.ts makeOutbound). */
export type Send = (request: OutboundHttpRequest) => Promise<OutboundResponse>

/** A token answer is a few hundred bytes of JSON; anything past this is not one. */
export const maxTokenAnswerBytes = 64 * 1024
/** For the whole exchange: connecting waits on it, so it is short. */
export const tokenTimeoutMs = 15_000

const parsed = (bytes: Uint8Array): unknown => {
  try {
    return JSON.parse(new TextDecoder().decode(bytes))
  } catch {
    return undefined
  }
}

/** One POST of the form to the token endpoint; its failures name the endpoint's host, never the form. */
const postForm = async (send: Send, tokenUrl: string, form: Record<string, string>, service: string) => {
  const host = URL.canParse(tokenUrl) ? new URL(tokenUrl).host : "an address that is not a URL"
  let answer: OutboundResponse
  try {
    answer = await send({
      url: tokenUrl,
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: new TextEncoder().encode(new URLSearchParams(form).toString()),
      maxBytes: maxTokenAnswerBytes,
      timeoutMs: tokenTimeoutMs,
      // A redirect would carry the client secret and the code elsewhere.
      maxRedirects: 0
    })
  } catch (error) {
    throw new Error(`could not reach ${service} at ${host}: ${error instanceof Error ? error.message : String(error)}`)
  }
  if (answer.truncated) throw new Error(`${service} at ${host} answered with more than ${maxTokenAnswerBytes} bytes.`)
  return { status: answer.status, body: parsed(answer.body) }
}

const tokenRequest = async (
  send: Send,
  tokenUrl: string,
  form: Record<string, string>,
  refreshToken: string | null,
  now: number,
  service: string
): Promise<Tokens> => {
  const answer = await postForm(send, tokenUrl, form, service)
  const access = field(answer.body, "access_token")
  if (answer.status >= 400 || typeof access !== "string" || access === "") {
    const error = field(answer.body, "error")
    throw new Error(
      `${service} refused (${answer.status}${typeof error === "string" ? ` ${error.slice(0, 80)}` : ""}).`
    )
  }
  const refresh = field(answer.body, "refresh_token")
  const lasts = field(answer.body, "expires_in")
  const seconds = typeof lasts === "number" && lasts > 0 ? lasts : 3600
  const kept = typeof refresh === "string" && refresh !== "" ? refresh : refreshToken
  if (kept === null) throw new Error(`${service} granted no refresh token: connect again, allowing offline access.`)
  return { accessToken: access, refreshToken: kept, expiresAt: String(now + seconds * 1000) }
}

export const exchangeCode = (
  send: Send,
  tokenUrl: string,
  client: Client,
  request: { readonly code: string; readonly verifier: string; readonly redirectUri: string },
  now: number,
  service = defaultService
) =>
  tokenRequest(
    send,
    tokenUrl,
    {
      grant_type: "authorization_code",
      code: request.code,
      code_verifier: request.verifier,
      redirect_uri: request.redirectUri,
      client_id: client.id,
      client_secret: client.secret
    },
    null,
    now,
    service
  )

/**
 * A new access token for the refresh token; Google usually keeps the refresh token, so the old one stays unless a new
 * one comes.
 */
export const refreshTokens = (
  send: Send,
  tokenUrl: string,
  client: Client,
  refreshToken: string,
  now: number,
  service = defaultService
) =>
  tokenRequest(
    send,
    tokenUrl,
    { grant_type: "refresh_token", refresh_token: refreshToken, client_id: client.id, client_secret: client.secret },
    refreshToken,
    now,
    service
  )
