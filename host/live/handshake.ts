/**
 * Whether a WebSocket handshake may become a live socket, decided before anything is upgraded:
 * the path must be /api/ws, a browser's Origin must be this node's own, scheme, host and port
 * (http/same-origin.ts: a page on another site must not ride the person's cookie, cross-site
 * WebSocket hijacking), and the signed session
 * cookie must name a live session. A refusal is a plain HTTP answer with an ApiError body that
 * says no more than the HTTP routes would.
 */
import * as Cookies from "@effect/platform/Cookies"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import type { IncomingMessage } from "node:http"
import type { Duplex } from "node:stream"
import type { ApiErrorBody } from "../../kernel/contract/errors.ts"
import { SESSION_COOKIE, type SessionShape } from "../../extensions/accounts/contract/session.ts"
import type { Sessions } from "../../extensions/accounts/sessions.ts"
import { unsignCookie } from "../../extensions/accounts/tokens.ts"
import { fromAnotherSite, type OriginPolicy } from "../http/same-origin.ts"
import { refusalHeaders } from "../../kernel/http/refusal-response.ts"
import { securityHeaders } from "../http/security-headers.ts"
import { LIVE_PATH } from "./contract/protocol.ts"

export interface Refusal {
  readonly status: 401 | 403 | 404 | 429 | 500
  readonly body: ApiErrorBody
}

const reasons = {
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  429: "Too Many Requests",
  500: "Internal Server Error"
} as const

export const refusals = {
  notFound: {
    status: 404,
    body: { error: "not_found", message: "There is no WebSocket route here; the live channel is /api/ws." }
  },
  crossSite: {
    status: 403,
    body: { error: "forbidden_origin", message: "A page from another site cannot open this node's live channel." }
  },
  unauthorized: { status: 401, body: { error: "unauthorized", message: "Sign in first: this needs a session." } },
  tooManySockets: {
    status: 429,
    body: {
      error: "too_many_sockets",
      message: "You have as many live connections open as one person may (tabs and devices). Close one, then try again."
    }
  },
  internal: {
    status: 500,
    body: { error: "internal", message: "Something went wrong on the node. Try again in a moment." }
  }
} satisfies Record<string, Refusal>

/** The session the handshake carries, or the refusal to answer it with. */
export const admit = (
  request: IncomingMessage,
  sessions: Sessions,
  policy: OriginPolicy
): Effect.Effect<Either.Either<SessionShape, Refusal>> =>
  Effect.gen(function* () {
    if (new URL(request.url ?? "/", "http://node").pathname !== LIVE_PATH) return Either.left(refusals.notFound)
    if (fromAnotherSite(request.headers, policy)) return Either.left(refusals.crossSite)
    const value = Cookies.parseHeader(request.headers.cookie ?? "")[SESSION_COOKIE]
    const token = value === undefined ? null : unsignCookie(value, sessions.cookieSecret)
    if (token === null) return Either.left(refusals.unauthorized)
    const session = yield* Effect.orDie(sessions.resolve(token))
    return Option.match(session, { onNone: () => Either.left(refusals.unauthorized), onSome: Either.right })
  })

/** Answers the handshake with a plain HTTP refusal and closes the socket once it is written. */
export const refuse = (socket: Duplex, refusal: Refusal): void => {
  if (!socket.writable) {
    socket.destroy()
    return
  }
  const body = JSON.stringify(refusal.body)
  const headers = {
    ...securityHeaders,
    ...refusalHeaders(refusal.status, refusal.body),
    connection: "close",
    "content-type": "application/json",
    "content-length": String(Buffer.byteLength(body))
  }
  socket.once("finish", () => socket.destroy())
  socket.end(
    `HTTP/1.1 ${refusal.status} ${reasons[refusal.status]}\r\n` +
      Object.entries(headers)
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join("") +
      `\r\n${body}`
  )
}
