/** The seed actor's refusals (its protocol's errors), here so a caller of its `Seeds` tag can name them. */
import * as Schema from "effect/Schema"

export class SeedExists extends Schema.TaggedError<SeedExists>()("SeedExists", { did: Schema.String }) {}
export class SeedMissing extends Schema.TaggedError<SeedMissing>()("SeedMissing", { did: Schema.String }) {}
