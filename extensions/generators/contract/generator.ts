/**
 * The generator record, the body that creates or replaces one, and the list item. A body names
 * no id, owner, run count or date (the server decides them) and any field it does not know is
 * refused, so a misspelt `dependson` is an error rather than a silently dropped dependency.
 * Plain schemas only: the HTTP contract imports this file.
 */
import * as Schema from "effect/Schema"
import { GeneratorStep, OutputKind } from "./step.ts"

export const SPARKLES = "✨"
export const MAX_STEPS = 24
export const INPUTS_SCHEMA_MAX_BYTES = 32_768

/** Lowercase letters and digits in groups joined by single hyphens: `research-brief-2`. */
export const slugPattern = /^[a-z0-9]+(?:-[a-z0-9]+)*$/

export const Slug = Schema.String.pipe(
  Schema.maxLength(64),
  Schema.pattern(slugPattern, {
    message: () => "a slug of lowercase letters and digits joined by single hyphens, at most 64"
  })
)

/** A JSON Schema document (its meaning is checked by the service, which compiles it). */
export const InputsSchema = Schema.Record({ key: Schema.String, value: Schema.Unknown }).pipe(
  Schema.filter(
    (schema) =>
      new TextEncoder().encode(JSON.stringify(schema)).length <= INPUTS_SCHEMA_MAX_BYTES ||
      `an inputsSchema of at most ${INPUTS_SCHEMA_MAX_BYTES} bytes of JSON`
  )
)

const editable = {
  name: Schema.Trim.pipe(Schema.minLength(1), Schema.maxLength(120)),
  description: Schema.String.pipe(Schema.maxLength(2000)),
  icon: Schema.optionalWith(Schema.Trim.pipe(Schema.minLength(1), Schema.maxLength(16)), { default: () => SPARKLES }),
  inputsSchema: InputsSchema,
  steps: Schema.Array(GeneratorStep).pipe(Schema.minItems(1), Schema.maxItems(MAX_STEPS)),
  outputKinds: Schema.Array(OutputKind).pipe(Schema.minItems(1), Schema.maxItems(12)),
  priceCredits: Schema.optionalWith(Schema.Int.pipe(Schema.between(0, 1_000_000_000)), { default: () => 0 }),
  isPublic: Schema.optionalWith(Schema.Boolean, { default: () => true })
}

/**
 * POST and PUT bodies: the spec's "Generator minus id, ownerId, runs, createdAt". `slug` is derived
 * from the name when absent (on PUT: the generator keeps its slug).
 */
export const GeneratorInput = Schema.Struct({ ...editable, slug: Schema.optional(Slug) }).annotations({
  identifier: "GeneratorInput",
  parseOptions: { onExcessProperty: "error" }
})
export type GeneratorInput = typeof GeneratorInput.Type

/** The plugin a generator comes from (its id is then `<namespace>.<id>`); absent for the node's own and beings'. */
export const GeneratorPlugin = Schema.Struct({ id: Schema.String, name: Schema.String })
export type GeneratorPlugin = typeof GeneratorPlugin.Type

export const Generator = Schema.Struct({
  id: Schema.String,
  ownerId: Schema.String,
  ...editable,
  slug: Slug,
  runs: Schema.Int,
  createdAt: Schema.String,
  plugin: Schema.optional(GeneratorPlugin)
}).annotations({ identifier: "Generator" })
export type Generator = typeof Generator.Type

/**
 * The list item: no steps, no inputsSchema. `slug` is ours (the spec's list omits it) so a list links by slug.
 * `runs` here and on the record is how often the caller ran it (never others' activity).
 */
export const GeneratorSummary = Schema.Struct({
  id: Schema.String,
  ownerId: Schema.String,
  name: Schema.String,
  slug: Schema.String,
  description: Schema.String,
  icon: Schema.String,
  outputKinds: Schema.Array(OutputKind),
  runs: Schema.Int,
  plugin: Schema.optional(GeneratorPlugin)
}).annotations({ identifier: "GeneratorSummary" })
export type GeneratorSummary = typeof GeneratorSummary.Type

/** A generator of the seeded catalogue as its file writes it (defaults may be left out); upserted by slug. */
export type GeneratorSeed = typeof GeneratorInput.Encoded & { readonly slug: string }

/** Who owns the seeded catalogue: no being, so no member can edit it; the world owner may. */
export const SYSTEM_OWNER = "system"
