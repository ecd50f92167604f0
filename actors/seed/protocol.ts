/**
 * The seed actor's messages. One entity per paired seed (its id is the seed's did) handles them
 * one at a time, so two beats carrying the same nonce cannot both be fresh, and an owner's edit
 * never interleaves with an act. All are volatile: each is a question its caller waits on.
 */
import * as Entity from "@effect/cluster/Entity"
import * as Rpc from "@effect/rpc/Rpc"
import * as Schema from "effect/Schema"
import {
  SeedActPayload,
  SeedBeatPayload,
  SeedGrant,
  SeedPairing,
  SeedReceipt,
  SeedUpdate
} from "../../extensions/federation/contract/seeds.ts"
import { SeedExists, SeedMissing } from "./contract/errors.ts"
import { SeedBeingRefused } from "./contract/seed-beings.ts"
import { SeedStanding } from "./contract/seeds.ts"

export const SeedEntity = Entity.make("Seed", [
  /** Pairs the seed: its being, its key row and the pairing, in one transaction. */
  Rpc.make("Pair", {
    payload: { name: Schema.String, handle: Schema.NullOr(Schema.String), grants: Schema.Array(SeedGrant) },
    success: SeedPairing,
    error: Schema.Union(SeedExists, SeedBeingRefused)
  }),
  Rpc.make("Update", { payload: SeedUpdate, success: SeedPairing, error: SeedMissing }),
  /** Unpairs the seed; the being it was paired with (which stays), or null when there was no pairing. */
  Rpc.make("Remove", { success: Schema.NullOr(Schema.String) }),
  Rpc.make("Knock", { success: SeedStanding }),
  /** A beat whose shape, audience and signature the caller checked. */
  Rpc.make("Beat", { payload: { beat: SeedBeatPayload }, success: SeedReceipt }),
  /** A delegated act whose shape, audience and signature the caller checked. */
  Rpc.make("Act", { payload: { act: SeedActPayload }, success: SeedReceipt })
])
