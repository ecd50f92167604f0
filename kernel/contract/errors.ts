/**
 * The error model: every refusal is an ApiError `{ error, message, details? }` on the wire.
 * A refusal carries its HTTP status (a brand, `RefusalStatus`) and its named code (listed in
 * docs/api.md). Features declare their own refusals with `refusal(...)` in their contract; the
 * generic class of each status below is the HTTP layer's own. Each status has a `schema` that the
 * HTTP contract declares: the wire shape, the status, and a type side that only refusals of that
 * status satisfy (the wire shapes are alike, so only the status tells a 403 from a 400).
 */
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import * as Data from "effect/Data"
import * as Predicate from "effect/Predicate"
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

/**
 * The HTTP status a refusal answers with. Endpoints declare statuses (the wire schemas below);
 * features name their refusals (`refusal(409, "InsufficientCredits", "insufficient_credits")` in
 * their contract), so a caller branches on a refusal's own tag while every endpoint that declares
 * its status answers it unchanged on the wire.
 */
export const RefusalStatus: unique symbol = Symbol.for("svc/RefusalStatus")

/** The statuses a refusal may answer with: each has its wire schema below. */
export type ApiStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 429 | 503

/** Any refusal of one status: what an endpoint's declared error of that status accepts. */
export interface Refusal<Status extends ApiStatus = ApiStatus> {
  readonly _tag: string
  readonly [RefusalStatus]: Status
  readonly error: string
  readonly message: string
  readonly details?: unknown
}

/** What a named refusal is made with: its code is fixed by its class. */
export interface RefusalFields {
  readonly message: string
  readonly details?: unknown
}

const isRefusalOf =
  <Status extends ApiStatus>(status: Status) =>
  (input: unknown): input is Refusal<Status> =>
    Predicate.hasProperty(input, RefusalStatus) && input[RefusalStatus] === status

const wireSchema = <Status extends ApiStatus, E extends Refusal<Status>>(
  tag: string,
  make: (body: ApiErrorBody) => E,
  status: Status
) =>
  Schema.transform(ApiErrorBody, Schema.declare(isRefusalOf(status), { identifier: tag }), {
    strict: true,
    decode: (body): Refusal<Status> => make(body),
    encode: (error): ApiErrorBody =>
      error.details === undefined
        ? { error: error.error, message: error.message }
        : { error: error.error, message: error.message, details: error.details }
  }).annotations({ ...HttpApiSchema.annotations({ status }), identifier: tag })

const refusalBase = <const Status extends ApiStatus, const Tag extends string>(status: Status, tag: Tag) => {
  class Base extends Data.TaggedError(tag)<{
    readonly error: string
    readonly message: string
    readonly details?: unknown
  }> {
    declare readonly [RefusalStatus]: Status
  }
  // On the prototype, not each instance: equality, logging and JSON see only the wire fields.
  Object.defineProperty(Base.prototype, RefusalStatus, { value: status })
  return Base
}

/**
 * A feature's named refusal: its own tag for callers, its status for the wire, its code (listed in
 * docs/api.md) fixed. Declared once in the feature's contract (`contract/errors.ts`).
 */
export const refusal = <const Status extends ApiStatus, const Tag extends string>(
  status: Status,
  tag: Tag,
  code: string
) =>
  class extends refusalBase(status, tag) {
    constructor(fields: RefusalFields) {
      super({ ...fields, error: code })
    }
  }

/** A status's generic refusal: the kernel's and the HTTP layer's own (a bad body, no route, no session). */
const apiError = <const Status extends ApiStatus, const Tag extends string>(
  status: Status,
  tag: Tag,
  defaultCode: string
) =>
  class extends refusalBase(status, tag) {
    constructor(fields: ApiErrorFields) {
      super({ ...fields, error: fields.error ?? defaultCode })
    }
  }

export class InvalidRequest extends apiError(400, "InvalidRequest", "invalid_request") {
  static readonly schema = wireSchema("InvalidRequest", (body) => new InvalidRequest(body), 400)
}
export class Unauthorized extends apiError(401, "Unauthorized", "unauthorized") {
  static readonly schema = wireSchema("Unauthorized", (body) => new Unauthorized(body), 401)
}
export class Forbidden extends apiError(403, "Forbidden", "forbidden") {
  static readonly schema = wireSchema("Forbidden", (body) => new Forbidden(body), 403)
}
export class NotFound extends apiError(404, "NotFound", "not_found") {
  static readonly schema = wireSchema("NotFound", (body) => new NotFound(body), 404)
}
export class Conflict extends apiError(409, "Conflict", "conflict") {
  static readonly schema = wireSchema("Conflict", (body) => new Conflict(body), 409)
}
export class PayloadTooLarge extends apiError(413, "PayloadTooLarge", "payload_too_large") {
  static readonly schema = wireSchema("PayloadTooLarge", (body) => new PayloadTooLarge(body), 413)
}
export class UnsupportedMediaType extends apiError(415, "UnsupportedMediaType", "unsupported_media_type") {
  static readonly schema = wireSchema("UnsupportedMediaType", (body) => new UnsupportedMediaType(body), 415)
}
export class RateLimited extends apiError(429, "RateLimited", "rate_limited") {
  static readonly schema = wireSchema("RateLimited", (body) => new RateLimited(body), 429)
}
export class Unavailable extends apiError(503, "Unavailable", "unavailable") {
  static readonly schema = wireSchema("Unavailable", (body) => new Unavailable(body), 503)
}

/** Every refusal a route may answer, whatever its feature named it. */
export type ApiError = { readonly [S in ApiStatus]: Refusal<S> }[ApiStatus]
