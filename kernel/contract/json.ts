/**
 * A JSON value as a schema: what the spec's `Json` fields hold (a task's input, a trace event's
 * data, a project's inputs). Recursive, so a JSON column decodes to a real type instead of
 * `unknown`, and the wire contract says what travels.
 */
import * as Schema from "effect/Schema"

export type JsonValue =
  | null
  | boolean
  | number
  | string
  | ReadonlyArray<JsonValue>
  | { readonly [key: string]: JsonValue }

export const JsonValue: Schema.Schema<JsonValue> = Schema.Union(
  Schema.Null,
  Schema.Boolean,
  Schema.Number,
  Schema.String,
  Schema.Array(Schema.suspend((): Schema.Schema<JsonValue> => JsonValue)),
  Schema.Record({ key: Schema.String, value: Schema.suspend((): Schema.Schema<JsonValue> => JsonValue) })
).annotations({ identifier: "JsonValue" })

/**
 * A value as JSON carries it (undefined fields dropped, dates as text): what a reader of the
 * stored copy gets, so an event published at the write says exactly what a later read will.
 */
export const toJsonValue = (value: unknown): JsonValue => {
  if (value === undefined) return null
  const carried: JsonValue = JSON.parse(JSON.stringify(value))
  return carried
}
