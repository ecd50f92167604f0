/**
 * The signed-in caller of a raw route (beside the contract, since it answers bytes), from the
 * `svc_session` cookie as the contract's session middleware reads it. Refusals and queries are
 * kernel/http/raw-route.ts's, re-exported for the files' own routes.
 */
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as Effect from "effect/Effect"
import { SESSION_COOKIE } from "../accounts/contract/session.ts"
import { SessionLookup } from "../accounts/contract/session-lookup.ts"

export { answerRefusal, queryParams, unauthorized } from "../../kernel/http/raw-route.ts"

/** The signed-in caller of a raw request; none without a live session. */
export const rawCaller = Effect.gen(function* () {
  const request = yield* HttpServerRequest.HttpServerRequest
  const sessions = yield* SessionLookup
  return yield* sessions.fromCookie(request.cookies[SESSION_COOKIE] ?? "")
})
