/**
 * The paired seeds as the federation's seed routes reach them: the owner's pairings and the wire
 * documents a seed sends, each a message to that seed's actor (so two beats carrying the same
 * nonce cannot both be fresh, and an edit never interleaves with an act), and whether a did is
 * paired at all (an unknown address never wakes an actor). Implemented in actors/seed/seeds.ts;
 * a full mailbox is the kernel's 503 `busy`.
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import {
  SeedGrant,
  type SeedActPayload,
  type SeedBeatPayload,
  type SeedPairing,
  type SeedReceipt,
  type SeedUpdate
} from "../../../extensions/federation/contract/seeds.ts"
import type { ActorBusy } from "../../../kernel/contract/actor-errors.ts"
import type { SeedExists, SeedMissing } from "./errors.ts"
import type { SeedBeingRefused } from "./seed-beings.ts"

/** What a knock may learn of a paired, unblocked seed; null for anyone else. */
export const SeedStanding = Schema.NullOr(
  Schema.Struct({ nonce: Schema.String, seq: Schema.Int, grants: Schema.Array(SeedGrant) })
)

export interface SeedsShape {
  /** The owner's pairings, never a nonce. */
  readonly list: Effect.Effect<ReadonlyArray<SeedPairing>>
  readonly paired: (did: string) => Effect.Effect<boolean>
  /** Pairs the seed: its being, its key row and the pairing, in one transaction. */
  readonly pair: (
    did: string,
    pairing: { readonly name: string; readonly handle: string | null; readonly grants: ReadonlyArray<SeedGrant> }
  ) => Effect.Effect<SeedPairing, SeedExists | SeedBeingRefused | ActorBusy>
  readonly update: (did: string, update: SeedUpdate) => Effect.Effect<SeedPairing, SeedMissing | ActorBusy>
  /** Unpairs the seed; the being it was paired with (which stays), or null when there was no pairing. */
  readonly remove: (did: string) => Effect.Effect<string | null, ActorBusy>
  readonly knock: (did: string) => Effect.Effect<typeof SeedStanding.Type>
  /** A beat whose shape, audience and signature the caller checked. */
  readonly beat: (did: string, beat: SeedBeatPayload) => Effect.Effect<SeedReceipt, ActorBusy>
  /** A delegated act whose shape, audience and signature the caller checked. */
  readonly act: (did: string, act: SeedActPayload) => Effect.Effect<SeedReceipt, ActorBusy>
}

export class Seeds extends Context.Tag("seed/Seeds")<Seeds, SeedsShape>() {}
