/**
 * An ApiError as an HTTP answer, with the headers its status calls for: a 429 says when to come
 * back (Retry-After, from `details.retryAfterSeconds`), a 413 closes the connection (the rest of
 * the body is never read, so the connection cannot carry another request).
 */
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Predicate from "effect/Predicate"
import type { ApiErrorBody } from "../contract/errors.ts"

/** The headers a refusal's status calls for (also a refused WebSocket handshake's: host/live/handshake.ts). */
export const refusalHeaders = (status: number, error: ApiErrorBody): Record<string, string> => {
  const headers: Record<string, string> = {}
  if (status === 413) headers.connection = "close"
  if (status === 429 && Predicate.hasProperty(error.details, "retryAfterSeconds")) {
    headers["retry-after"] = String(error.details.retryAfterSeconds)
  }
  return headers
}

export const refusalResponse = (status: number, error: ApiErrorBody): HttpServerResponse.HttpServerResponse => {
  const headers = refusalHeaders(status, error)
  const body =
    error.details === undefined
      ? { error: error.error, message: error.message }
      : { error: error.error, message: error.message, details: error.details }
  return HttpServerResponse.unsafeJson(body, { status, headers })
}
