/**
 * The signed-in caller of a raw route (beside the contract, since it answers bytes, redirects or a
 * page), from the `svc_session` cookie as the contract's session middleware reads it: any feature's
 * raw route asks here. Refusals and queries of raw routes are kernel/http/raw-route.ts's.
 */
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as Effect from "effect/Effect"
import { SESSION_COOKIE } from "./session.ts"
import { SessionLookup } from "./session-lookup.ts"

/** The signed-in caller of a raw request; none without a live session. */
export const rawCaller = Effect.gen(function* () {
  const request = yield* HttpServerRequest.HttpServerRequest
  const sessions = yield* SessionLookup
  return yield* sessions.fromCookie(request.cookies[SESSION_COOKIE] ?? "")
})
