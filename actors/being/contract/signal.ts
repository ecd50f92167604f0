/**
 * The desktop Signal as it travels: what a raiser may send (`SignalInput`, the limits of the
 * first document's signal.raise) and the stored record (`Signal`). Plain schemas only: the HTTP
 * contract, and through it the web app, import this file.
 */
import * as Schema from "effect/Schema"

export const SignalKind = Schema.Literal("decision", "insight", "reminder", "alert", "question", "celebration")
export type SignalKind = typeof SignalKind.Type

export const SignalPriority = Schema.Literal("low", "normal", "high", "urgent")
export type SignalPriority = typeof SignalPriority.Type

export const SignalStatus = Schema.Literal("open", "answered", "dismissed")
export type SignalStatus = typeof SignalStatus.Type

export const SignalOption = Schema.Struct({
  id: Schema.String.pipe(
    Schema.pattern(/^[A-Za-z0-9_.:-]{1,40}$/, { message: () => "an option id of 1 to 40 letters, digits or _ . : -" })
  ),
  label: Schema.Trim.pipe(Schema.minLength(1), Schema.maxLength(80)),
  hint: Schema.optional(Schema.String.pipe(Schema.maxLength(200)))
})
export type SignalOption = typeof SignalOption.Type

/** An ISO 8601 date or date-time that Date can read; stored normalised to UTC. */
export const IsoDateInput = Schema.String.pipe(
  Schema.filter(
    (value) =>
      /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(value) &&
      !Number.isNaN(Date.parse(value)),
    { message: () => "an ISO 8601 date such as 2030-01-31T09:00:00Z" }
  )
)

export const ACTION_MAX_BYTES = 16_384

/** Opaque to the node unless its `kind` names a registered action (actions.ts); must survive JSON. */
export const SignalAction = Schema.Record({ key: Schema.String, value: Schema.Unknown }).pipe(
  Schema.filter((value) => {
    let json: string | undefined
    try {
      json = JSON.stringify(value)
    } catch {
      return "an action that can be written as JSON"
    }
    return json !== undefined && new TextEncoder().encode(json).length <= ACTION_MAX_BYTES
      ? true
      : `an action of at most ${ACTION_MAX_BYTES} bytes of JSON`
  })
)
export type SignalAction = typeof SignalAction.Type

const distinctIds = (options: ReadonlyArray<SignalOption>) =>
  new Set(options.map((option) => option.id)).size === options.length || "options with distinct ids"

export const SignalInput = Schema.Struct({
  kind: Schema.optionalWith(SignalKind, { default: () => "insight" }),
  title: Schema.Trim.pipe(Schema.minLength(1, { message: () => "a title" }), Schema.maxLength(160)),
  body: Schema.optionalWith(Schema.String.pipe(Schema.maxLength(4000)), { default: () => "" }),
  options: Schema.optionalWith(Schema.Array(SignalOption).pipe(Schema.maxItems(6), Schema.filter(distinctIds)), {
    default: () => []
  }),
  priority: Schema.optionalWith(SignalPriority, { default: () => "normal" }),
  dueAt: Schema.optionalWith(Schema.NullOr(IsoDateInput), { default: () => null }),
  action: Schema.optionalWith(Schema.NullOr(SignalAction), { default: () => null })
})
export type SignalInput = typeof SignalInput.Type

/** What a registered action handler answered, stored beside the answer that ran it. */
export const ActionResult = Schema.Struct({ kind: Schema.String, output: Schema.Unknown })
export type ActionResult = typeof ActionResult.Type

export const Signal = Schema.Struct({
  id: Schema.String,
  beingId: Schema.String,
  kind: SignalKind,
  title: Schema.String,
  body: Schema.String,
  options: Schema.Array(SignalOption),
  priority: SignalPriority,
  dueAt: Schema.NullOr(Schema.String),
  action: Schema.NullOr(SignalAction),
  /** Who raised it: `owner`, `plugin:<plugin id>`, `studio:<project id>`, ... */
  source: Schema.String,
  status: SignalStatus,
  /** The id of the chosen option once answered. */
  answer: Schema.NullOr(Schema.String),
  actionResult: Schema.NullOr(ActionResult),
  createdAt: Schema.String,
  updatedAt: Schema.String,
  answeredAt: Schema.NullOr(Schema.String)
})
export type Signal = typeof Signal.Type

/** The outcome of a raise: `delivered` is false when the gate kept it off the desktop. */
export const RaisedSignal = Schema.Struct({ signal: Signal, delivered: Schema.Boolean })
export type RaisedSignal = typeof RaisedSignal.Type
