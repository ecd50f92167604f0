/**
 * The skill registry's plain, serialisable shapes: what the skills route lists and what an
 * invocation asks and answers. Plain schemas only: the HTTP contract (and so the web app) imports
 * this file.
 */
import * as Schema from "effect/Schema"

/** A JSON Schema document, as generated from the skill's Effect Schema. */
const JsonSchema = Schema.Record({ key: Schema.String, value: Schema.Unknown })

export const SkillDef = Schema.Struct({
  /** `<namespace>.<id>`, e.g. `files.list`. */
  name: Schema.String,
  description: Schema.String,
  /** The plugin's namespace: `files`, `web`, a third-party plugin's own. */
  family: Schema.String,
  /** Refused unless a human approved the exact call (the invoke route counts as approval). */
  worldActing: Schema.Boolean,
  inputSchema: JsonSchema,
  outputSchema: JsonSchema,
  pluginId: Schema.String
})
export type SkillDef = typeof SkillDef.Type

export const InvokeSkillRequest = Schema.Struct({
  name: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200)),
  input: Schema.Record({ key: Schema.String, value: Schema.Unknown })
})
export type InvokeSkillRequest = typeof InvokeSkillRequest.Type

export const InvokeSkillResult = Schema.Struct({
  ok: Schema.Boolean,
  output: Schema.optional(Schema.Unknown),
  error: Schema.optional(Schema.String),
  durationMs: Schema.Number
})
export type InvokeSkillResult = typeof InvokeSkillResult.Type
