/**
 * What the seed actor needs from features it does not own (its contract, so the binding names no inner file), bound
 * in extensions/federation/seed-beings.ts: raising a seed's being, and finding whose desktop a seed's
 * signal lands on.
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import * as Schema from "effect/Schema"

/** Why a seed's being could not be raised: its handle is taken, or its did is already a being's here. */
export class SeedBeingRefused extends Schema.TaggedError<SeedBeingRefused>()("SeedBeingRefused", {
  error: Schema.Literal("handle_taken", "did_taken"),
  message: Schema.String
}) {}

export interface SeedBeingsShape {
  /**
   * The seed's being (kind `seed`, no email, no password, never signs in) with its soul and its
   * key row (the seed's own did, no secret), run inside the caller's transaction. A did whose
   * earlier pairing was removed gets its being back. Answers the being's id.
   */
  readonly raise: (input: {
    readonly did: string
    readonly name: string
    readonly handle: string | null
    readonly at: string
  }) => Effect.Effect<string, SeedBeingRefused>
  /** The owner's being: where a seed acts (its signals land on the owner's desktop). */
  readonly owner: Effect.Effect<Option.Option<string>>
}

export class SeedBeings extends Context.Tag("seed/SeedBeings")<SeedBeings, SeedBeingsShape>() {}
