/**
 * The signed-in caller of a raw route (beside the contract, since it answers bytes), from the
 * `svc_session` cookie as the contract's session middleware reads it. Refusals and queries are
 * kernel/http/raw-route.ts's, re-exported for the files' own routes.
 */
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { SESSION_COOKIE, type Caller } from "../accounts/contract/session.ts"
import { Sessions } from "../accounts/sessions.ts"
import { unsignCookie } from "../accounts/tokens.ts"

export { answerRefusal, queryParams, unauthorized } from "../../kernel/http/raw-route.ts"

/** The signed-in caller of a raw request; none without a live session. */
export const rawCaller = Effect.gen(function* () {
  const request = yield* HttpServerRequest.HttpServerRequest
  const sessions = yield* Sessions
  const token = unsignCookie(request.cookies[SESSION_COOKIE] ?? "", sessions.cookieSecret)
  if (token === null) return Option.none<Caller>()
  return yield* Effect.orDie(sessions.resolve(token))
})
