/**
 * The error model: every refusal is an ApiError `{ error, message, details? }` on the wire.
 * One class per HTTP status; `error` carries the named code of the refusal (listed in
 * docs/api.md) and defaults to the generic code of that status. Each class has a `schema`
 * that the HTTP contract declares: the wire shape, the status, and a type side that only
 * instances of that class satisfy (the wire shapes are alike, so only the class tells a
 * 403 from a 400).
 */
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import * as Data from "effect/Data"
import * as Schema from "effect/Schema"

export interface ApiErrorFields {
  readonly error?: string
  readonly message: string
  readonly details?: unknown
}

export const ApiErrorBody = Schema.Struct({
  error: Schema.String,
  message: Schema.String,
  details: Schema.optional(Schema.Unknown)
})
export type ApiErrorBody = typeof ApiErrorBody.Type

const wireSchema = <E extends { readonly error: string; readonly message: string; readonly details?: unknown }>(
  tag: string,
  Class: new (fields: ApiErrorFields) => E,
  status: number
) =>
  Schema.transform(
    ApiErrorBody,
    Schema.declare((input): input is E => input instanceof Class, { identifier: tag }),
    {
      strict: true,
      decode: (body) => new Class(body),
      encode: (error): ApiErrorBody =>
        error.details === undefined
          ? { error: error.error, message: error.message }
          : { error: error.error, message: error.message, details: error.details }
    }
  ).annotations({ ...HttpApiSchema.annotations({ status }), identifier: tag })

const apiError = <const Tag extends string>(tag: Tag, defaultCode: string) =>
  class extends Data.TaggedError(tag)<{
    readonly error: string
    readonly message: string
    readonly details?: unknown
  }> {
    constructor(fields: ApiErrorFields) {
      super({ ...fields, error: fields.error ?? defaultCode })
    }
  }

export class InvalidRequest extends apiError("InvalidRequest", "invalid_request") {
  static readonly schema = wireSchema("InvalidRequest", InvalidRequest, 400)
}
export class Unauthorized extends apiError("Unauthorized", "unauthorized") {
  static readonly schema = wireSchema("Unauthorized", Unauthorized, 401)
}
export class Forbidden extends apiError("Forbidden", "forbidden") {
  static readonly schema = wireSchema("Forbidden", Forbidden, 403)
}
export class NotFound extends apiError("NotFound", "not_found") {
  static readonly schema = wireSchema("NotFound", NotFound, 404)
}
export class Conflict extends apiError("Conflict", "conflict") {
  static readonly schema = wireSchema("Conflict", Conflict, 409)
}
export class PayloadTooLarge extends apiError("PayloadTooLarge", "payload_too_large") {
  static readonly schema = wireSchema("PayloadTooLarge", PayloadTooLarge, 413)
}
export class UnsupportedMediaType extends apiError("UnsupportedMediaType", "unsupported_media_type") {
  static readonly schema = wireSchema("UnsupportedMediaType", UnsupportedMediaType, 415)
}
export class RateLimited extends apiError("RateLimited", "rate_limited") {
  static readonly schema = wireSchema("RateLimited", RateLimited, 429)
}
export class Unavailable extends apiError("Unavailable", "unavailable") {
  static readonly schema = wireSchema("Unavailable", Unavailable, 503)
}

export type ApiError =
  | InvalidRequest
  | Unauthorized
  | Forbidden
  | NotFound
  | Conflict
  | PayloadTooLarge
  | UnsupportedMediaType
  | RateLimited
  | Unavailable
