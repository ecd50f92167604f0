/**
 * What the raw file routes (beside the contract, since they answer bytes) share with the
 * contract's routes: the caller from the `svc_session` cookie, and refusals as the same ApiError
 * bodies with the same statuses.
 */
import * as HttpApiError from "@effect/platform/HttpApiError"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import type * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import type * as Schema from "effect/Schema"
import type { ApiError } from "../../kernel/contract/errors.ts"
import { InvalidRequest } from "../../kernel/contract/errors.ts"
import { SESSION_COOKIE } from "../accounts/contract/session.ts"
import { SessionLookup } from "../accounts/contract/session-lookup.ts"
import { toApiError } from "../../kernel/http/api-error.ts"
import { refusal } from "../../kernel/http/refusal.ts"

const statuses: Record<ApiError["_tag"], number> = {
  InvalidRequest: 400,
  Unauthorized: 401,
  Forbidden: 403,
  NotFound: 404,
  Conflict: 409,
  PayloadTooLarge: 413,
  UnsupportedMediaType: 415,
  RateLimited: 429,
  Unavailable: 503
}

export const answerRefusal = (error: ApiError): HttpServerResponse.HttpServerResponse =>
  refusal(statuses[error._tag], error.details === undefined
    ? { error: error.error, message: error.message }
    : { error: error.error, message: error.message, details: error.details })

/** The signed-in caller of a raw request; none without a live session. */
export const rawCaller = Effect.gen(function* () {
  const request = yield* HttpServerRequest.HttpServerRequest
  const sessions = yield* SessionLookup
  return yield* sessions.fromCookie(request.cookies[SESSION_COOKIE] ?? "")
})

export const unauthorized = refusal(401, { error: "unauthorized", message: "Sign in first: this needs a session." })

/** A raw request's query decoded by a schema; a mismatch is the contract's 400 with the schema's issues. */
export const queryParams = <A, I extends Readonly<Record<string, string | ReadonlyArray<string> | undefined>>>(
  schema: Schema.Schema<A, I>
) =>
  HttpServerRequest.schemaSearchParams(schema).pipe(
    Effect.catchTag("ParseError", (error) => Effect.flatMap(HttpApiError.HttpApiDecodeError.fromParseError(error), Effect.fail)),
    Effect.mapError((error) => toApiError(error) as InvalidRequest)
  )
