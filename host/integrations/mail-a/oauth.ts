/**
 * mail_a's OAuth 2.0 as Google speaks it (RFC 6749's authorization code grant with RFC 7636's
 * PKCE, method S256): the consent URL, the code exchanged for tokens, and a refresh. The client
 * secret and the tokens travel only in the form bodies sent to MAIL_A_TOKEN_URL; failures quote
 * the endpoint's `error` code and never a token.
 */
import { createHash, randomBytes } from "node:crypto"
import { field, requestJson } from "../chat-post.ts"

const defaultService = "mail_a's token endpoint"

/** Reading the mailbox and sending from it: what email.read, the sync and email.send need, no more. */
export const mailAScopes = ["https://www.googleapis.com/auth/gmail.readonly", "https://www.googleapis.com/auth/gmail.send"] as const

/** An unguessable value for `state` or the PKCE verifier: 32 random bytes, base64url (43 characters, inside RFC 7636's 43..128). */
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

/** Google hands a refresh token only for offline access, and again on a repeated consent only when asked. */
export const googleConsentParams = { access_type: "offline", prompt: "consent" } as const

/** The tokens a connection keeps, sealed as its secret; `expiresAt` is epoch milliseconds as text. */
export interface Tokens {
  readonly accessToken: string
  readonly refreshToken: string
  readonly expiresAt: string
}

const tokenRequest = async (tokenUrl: string, form: Record<string, string>, refreshToken: string | null, now: number, service: string): Promise<Tokens> => {
  const answer = await requestJson(service, tokenUrl, {
    method: "POST",
    body: new URLSearchParams(form).toString(),
    contentType: "application/x-www-form-urlencoded"
  })
  const access = field(answer.body, "access_token")
  if (answer.status >= 400 || typeof access !== "string" || access === "") {
    const error = field(answer.body, "error")
    throw new Error(`${service} refused (${answer.status}${typeof error === "string" ? ` ${error.slice(0, 80)}` : ""}).`)
  }
  const refresh = field(answer.body, "refresh_token")
  const lasts = field(answer.body, "expires_in")
  const seconds = typeof lasts === "number" && lasts > 0 ? lasts : 3600
  const kept = typeof refresh === "string" && refresh !== "" ? refresh : refreshToken
  if (kept === null) throw new Error(`${service} granted no refresh token: connect again, allowing offline access.`)
  return { accessToken: access, refreshToken: kept, expiresAt: String(now + seconds * 1000) }
}

export const exchangeCode = (tokenUrl: string, client: Client, request: { readonly code: string; readonly verifier: string; readonly redirectUri: string }, now: number, service = defaultService) =>
  tokenRequest(tokenUrl, {
    grant_type: "authorization_code",
    code: request.code,
    code_verifier: request.verifier,
    redirect_uri: request.redirectUri,
    client_id: client.id,
    client_secret: client.secret
  }, null, now, service)

/** A new access token for the refresh token; Google usually keeps the refresh token, so the old one stays unless a new one comes. */
export const refreshTokens = (tokenUrl: string, client: Client, refreshToken: string, now: number, service = defaultService) =>
  tokenRequest(tokenUrl, { grant_type: "refresh_token", refresh_token: refreshToken, client_id: client.id, client_secret: client.secret }, refreshToken, now, service)
