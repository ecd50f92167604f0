/**
 * The error model: every refusal is an ApiError `{ error, message, details? }`.
 * One class per HTTP status; `error` carries the named code of the refusal (listed in
 * docs/api.md) and defaults to the generic code of that status. They are Schema classes so
 * the HTTP contract declares them once and encodes them on the wire; `_tag` lives on the
 * prototype (not on the wire) so `Effect.catchTag` works on them.
 */
import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"

const fields = (defaultCode: string) => ({
  error: Schema.String.pipe(Schema.propertySignature, Schema.withConstructorDefault(() => defaultCode)),
  message: Schema.String,
  details: Schema.optional(Schema.Unknown)
})

export class InvalidRequest extends Schema.Class<InvalidRequest>("InvalidRequest")(fields("invalid_request"), HttpApiSchema.annotations({ status: 400 })) {
  get _tag() { return "InvalidRequest" as const }
}
export class Unauthorized extends Schema.Class<Unauthorized>("Unauthorized")(fields("unauthorized"), HttpApiSchema.annotations({ status: 401 })) {
  get _tag() { return "Unauthorized" as const }
}
export class Forbidden extends Schema.Class<Forbidden>("Forbidden")(fields("forbidden"), HttpApiSchema.annotations({ status: 403 })) {
  get _tag() { return "Forbidden" as const }
}
export class NotFound extends Schema.Class<NotFound>("NotFound")(fields("not_found"), HttpApiSchema.annotations({ status: 404 })) {
  get _tag() { return "NotFound" as const }
}
export class Conflict extends Schema.Class<Conflict>("Conflict")(fields("conflict"), HttpApiSchema.annotations({ status: 409 })) {
  get _tag() { return "Conflict" as const }
}
export class PayloadTooLarge extends Schema.Class<PayloadTooLarge>("PayloadTooLarge")(fields("payload_too_large"), HttpApiSchema.annotations({ status: 413 })) {
  get _tag() { return "PayloadTooLarge" as const }
}
export class RateLimited extends Schema.Class<RateLimited>("RateLimited")(fields("rate_limited"), HttpApiSchema.annotations({ status: 429 })) {
  get _tag() { return "RateLimited" as const }
}
export class Unavailable extends Schema.Class<Unavailable>("Unavailable")(fields("unavailable"), HttpApiSchema.annotations({ status: 503 })) {
  get _tag() { return "Unavailable" as const }
}

export type ApiError =
  | InvalidRequest
  | Unauthorized
  | Forbidden
  | NotFound
  | Conflict
  | PayloadTooLarge
  | RateLimited
  | Unavailable

/** The wire shape of every error body, for raw routes that answer outside the contract. */
export const ApiErrorBody = Schema.Struct(fields("error"))
export type ApiErrorBody = typeof ApiErrorBody.Type
