/**
 * The capability profile with what relaying adds to it: the relay facilities and the dids this
 * node fronts when it is a relay, and the did of its own relay (pinned) as `delegatesTo`.
 */
import * as Effect from "effect/Effect"
import { NodeDocuments } from "../documents.ts"
import { RelayClient } from "./client.ts"
import { Relay } from "./relay.ts"
import { spanNamed } from "../../../kernel/spans.ts"

export class CapabilityProfiles extends Effect.Service<CapabilityProfiles>()("federation/CapabilityProfiles", {
  dependencies: [NodeDocuments.Default, Relay.Default, RelayClient.Default],
  effect: Effect.gen(function* () {
    const documents = yield* NodeDocuments
    const relay = yield* Relay
    const client = yield* RelayClient
    const profile = Effect.gen(function* () {
      const fronting = yield* relay.fronts
      const own = yield* client.state()
      return yield* documents.capabilities({
        relaying: fronting.on,
        fronts: fronting.fronts,
        maxQueued: fronting.maxQueued,
        delegatesTo: own.relayDid
      })
    }).pipe(spanNamed("federation.capabilities"))
    return { profile } as const
  })
}) {}
