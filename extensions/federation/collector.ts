/**
 * The collector's side of collect: this node asks each verified peer for what waits for it (the
 * way in for a node nobody can dial), runs every envelope through its own deliver ladder, and
 * acknowledges what arrived (accepted, or a replay of what had) on the next collect. An envelope
 * that is not the holder's own (another machine's descriptor) is refused unread. Acks not yet
 * sent wait in memory; lost with a restart, they only cost a second hand-over, which deliver
 * answers `replayed` and the next collect acknowledges. Every 30 seconds, and on a flush.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { PeerDirectory, PeerTransport } from "./contract/ports.ts"
import type { Peer } from "./contract/records.ts"
import { CURRENT_PROTOCOL, MAX_COLLECT_ACKS, PeerCollection, type PeerCollect } from "./contract/wire.ts"
import { everyThirtySeconds } from "./courier.ts"
import { Deliveries } from "./deliver.ts"
import { NodeDocuments } from "./documents.ts"
import { digestOf } from "./wire/signed.ts"

const COLLECT_PATH = "/api/federation/peer/collect"
/** Collections asked of one peer in one run at most (each hands up to 16 envelopes). */
const ROUNDS = 4

const decodeCollection = Schema.decodeUnknownOption(PeerCollection)

export class Collector extends Effect.Service<Collector>()("federation/Collector", {
  dependencies: [Deliveries.Default, NodeDocuments.Default],
  effect: Effect.gen(function* () {
    const deliveries = yield* Deliveries
    const documents = yield* NodeDocuments
    const directory = yield* PeerDirectory
    const transport = yield* PeerTransport
    const pendingAcks = new Map<string, Array<string>>()
    const oneAtATime = yield* Effect.makeSemaphore(1)

    const collectFrom = (peer: Peer) =>
      Effect.gen(function* () {
        let landed = 0
        for (let round = 0; round < ROUNDS; round++) {
          const acks = pendingAcks.get(peer.nodeDid) ?? []
          const ack = acks.slice(0, MAX_COLLECT_ACKS)
          const challenge = yield* documents.challenge(peer.nodeDid)
          const request: PeerCollect = {
            v: 1,
            protocol: CURRENT_PROTOCOL,
            descriptor: yield* documents.descriptor,
            attestation: yield* documents.attestation(peer.nodeDid, digestOf(challenge)),
            challenges: [challenge],
            ack
          }
          const answer = yield* Effect.either(transport.post(peer.endpoint, COLLECT_PATH, request))
          if (answer._tag === "Left" || answer.right.status !== 200) break
          const collection = decodeCollection(answer.right.json)
          if (Option.isNone(collection) || !collection.value.accepted) break
          pendingAcks.set(peer.nodeDid, acks.slice(ack.length))
          const arrived: Array<string> = []
          for (const envelope of collection.value.envelopes) {
            // Only the holder's own envelopes: one signed by any other machine is not read.
            if (envelope.descriptor.payload.did !== peer.nodeDid) continue
            const receipt = yield* deliveries.deliver({ envelope })
            if (receipt.accepted) landed += 1
            if ((receipt.accepted || receipt.code === "replayed") && receipt.digest !== null) arrived.push(receipt.digest)
          }
          const waiting = [...(pendingAcks.get(peer.nodeDid) ?? []), ...arrived]
          pendingAcks.set(peer.nodeDid, waiting)
          if (waiting.length === 0 && collection.value.remaining === 0) break
        }
        return landed
      })

    /** One collection from every verified peer; answers how many messages landed. */
    const run = Effect.fn("federation.collect")(() =>
      oneAtATime.withPermits(1)(Effect.gen(function* () {
        const peers = (yield* directory.list).filter((peer) => peer.status === "verified")
        const counts = yield* Effect.forEach(peers, collectFrom)
        return counts.reduce((sum, n) => sum + n, 0)
      })))

    return { run } as const
  })
}) {}

/** The collector on its own, every 30 seconds. */
export const CollectorLoop = Layer.scopedDiscard(Effect.flatMap(Collector, (collector) => everyThirtySeconds("collector", collector.run())))
