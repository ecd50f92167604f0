/**
 * What a raw route (beside the contract, since it answers bytes or redirects) shares with the
 * contract's routes: refusals as the same ApiError bodies with the same statuses, and a query
 * decoded by a schema into the same 400. Any feature's raw route uses them.
 */
import * as HttpApiError from "@effect/platform/HttpApiError"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import type * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import type * as Schema from "effect/Schema"
import { type ApiError, type InvalidRequest, RefusalStatus } from "../contract/errors.ts"
import { toApiError } from "./api-error.ts"
import { refusalResponse } from "./refusal-response.ts"

export const answerRefusal = (error: ApiError): HttpServerResponse.HttpServerResponse =>
  refusalResponse(
    error[RefusalStatus],
    error.details === undefined
      ? { error: error.error, message: error.message }
      : { error: error.error, message: error.message, details: error.details }
  )

export const unauthorized = refusalResponse(401, {
  error: "unauthorized",
  message: "Sign in first: this needs a session."
})

/** A raw request's query decoded by a schema; a mismatch is the contract's 400 with the schema's issues. */
export const queryParams = <A, I extends Readonly<Record<string, string | ReadonlyArray<string> | undefined>>>(
  schema: Schema.Schema<A, I>
) =>
  HttpServerRequest.schemaSearchParams(schema).pipe(
    Effect.catchTag("ParseError", (error) =>
      Effect.flatMap(HttpApiError.HttpApiDecodeError.fromParseError(error), Effect.fail)
    ),
    Effect.mapError((error) => toApiError(error) as InvalidRequest)
  )
