/**
 * The session a raw route's request carries (routes beside the contract, which the session
 * middleware does not cover): the `svc_session` cookie's value in, the live session or none out.
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import type { SessionShape } from "./session.ts"

export interface SessionLookupShape {
  /** None for a forged, unknown, expired or ended session's cookie. */
  readonly fromCookie: (cookie: string) => Effect.Effect<Option.Option<SessionShape>>
}

export class SessionLookup extends Context.Tag("accounts/SessionLookup")<SessionLookup, SessionLookupShape>() {}
