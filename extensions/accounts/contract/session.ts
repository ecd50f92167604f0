/**
 * The session middleware of the contract: reads the signed `svc_session` cookie, finds the
 * opaque token's row (stored as a SHA-256 digest, 30 days) and provides the CurrentSession.
 */
import * as HttpApiMiddleware from "@effect/platform/HttpApiMiddleware"
import * as HttpApiSecurity from "@effect/platform/HttpApiSecurity"
import * as Context from "effect/Context"
import { Unauthorized } from "../../../kernel/contract/errors.ts"
import type { Being } from "./records.ts"

export const SESSION_COOKIE = "svc_session"

/** Who asks, as a service sees it: the session's being, and whether it owns the node. */
export interface Caller {
  readonly beingId: string
  readonly isOwner: boolean
}

export interface SessionShape extends Caller {
  readonly sessionId: string
  /** The being as it was when the request's session was read. */
  readonly being: Being
}

export class CurrentSession extends Context.Tag("host/CurrentSession")<CurrentSession, SessionShape>() {}

export const sessionCookie = HttpApiSecurity.apiKey({ key: SESSION_COOKIE, in: "cookie" })

export class Authentication extends HttpApiMiddleware.Tag<Authentication>()("host/Authentication", {
  failure: Unauthorized.schema,
  provides: CurrentSession,
  security: { cookie: sessionCookie }
}) {}
