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
import {
  CURRENT_PROTOCOL,
  MAX_COLLECT_ACKS,
  PeerCollection,
  type DeliveryReceipt,
  type PeerCollect,
  type SealedEnvelope
} from "./contract/wire.ts"
import { everyThirtySeconds } from "./courier.ts"
import { Deliveries } from "./deliver.ts"
import { NodeDocuments } from "./documents.ts"
import { digestOf } from "./wire/signed.ts"
import { fnNamed } from "../../kernel/spans.ts"

const COLLECT_PATH = "/api/federation/peer/collect"
/** Collections asked of one peer in one run at most (each hands up to 16 envelopes). */
const ROUNDS = 4

const decodeCollection = Schema.decodeUnknownOption(PeerCollection)

/** Where a collection is asked for, and what of it is read and acknowledged. */
export interface Holder {
  readonly did: string
  readonly endpoint: string
  readonly path: string
  /** Whether an envelope is run through the ladder at all. */
  readonly reads: (envelope: SealedEnvelope) => boolean
  /** What to acknowledge for an envelope the ladder answered; null: hand it again. */
  readonly ackOf: (envelope: SealedEnvelope, receipt: DeliveryReceipt) => string | null
}

export class Collector extends Effect.Service<Collector>()("federation/Collector", {
  dependencies: [Deliveries.Default, NodeDocuments.Default],
  effect: Effect.gen(function* () {
    const deliveries = yield* Deliveries
    const documents = yield* NodeDocuments
    const directory = yield* PeerDirectory
    const transport = yield* PeerTransport
    const pendingAcks = new Map<string, Array<string>>()
    const oneAtATime = yield* Effect.makeSemaphore(1)

    /**
     * Up to four collections from one holder: each acknowledges what the last handed over and
     * hands the rest; answers how many messages landed. A holder that is not the did it is
     * expected to be (its answer's descriptor) is not read.
     */
    const collectFrom = (holder: Holder) =>
      Effect.gen(function* () {
        const key = `${holder.path} ${holder.did}`
        let landed = 0
        for (let round = 0; round < ROUNDS; round++) {
          const acks = pendingAcks.get(key) ?? []
          const ack = acks.slice(0, MAX_COLLECT_ACKS)
          const challenge = yield* documents.challenge(holder.did)
          const request: PeerCollect = {
            v: 1,
            protocol: CURRENT_PROTOCOL,
            descriptor: yield* documents.descriptor,
            attestation: yield* documents.attestation(holder.did, digestOf(challenge)),
            challenges: [challenge],
            ack
          }
          const answer = yield* Effect.either(transport.post(holder.endpoint, holder.path, request))
          if (answer._tag === "Left" || answer.right.status !== 200) break
          const collection = decodeCollection(answer.right.json)
          if (
            Option.isNone(collection) ||
            !collection.value.accepted ||
            collection.value.node?.payload.did !== holder.did
          )
            break
          pendingAcks.set(key, acks.slice(ack.length))
          const arrived: Array<string> = []
          for (const envelope of collection.value.envelopes) {
            if (!holder.reads(envelope)) continue
            const receipt = yield* deliveries.deliver({ envelope })
            if (receipt.accepted) landed += 1
            const acknowledged = holder.ackOf(envelope, receipt)
            if (acknowledged !== null) arrived.push(acknowledged)
          }
          const waiting = [...(pendingAcks.get(key) ?? []), ...arrived]
          pendingAcks.set(key, waiting)
          if (waiting.length === 0 && collection.value.remaining === 0) break
        }
        return landed
      })

    /**
     * A peer hands over its own envelopes, and is told the digests of the messages that arrived (accepted, or a replay
     * of one that had).
     */
    const fromPeer = (peer: Peer): Holder => ({
      did: peer.nodeDid,
      endpoint: peer.endpoint,
      path: COLLECT_PATH,
      // Only the holder's own envelopes: one signed by any other machine is not read.
      reads: (envelope) => envelope.descriptor.payload.did === peer.nodeDid,
      ackOf: (_, receipt) => (receipt.accepted || receipt.code === "replayed" ? receipt.digest : null)
    })

    /** One collection from every verified peer; answers how many messages landed. */
    const run = fnNamed("federation.collect")(() =>
      oneAtATime.withPermits(1)(
        Effect.gen(function* () {
          const peers = (yield* directory.list).filter((peer) => peer.status === "verified")
          const counts = yield* Effect.forEach(peers, (peer) => collectFrom(fromPeer(peer)))
          return counts.reduce((sum, n) => sum + n, 0)
        })
      )
    )

    return { run, collectFrom } as const
  })
}) {}

/** The collector on its own, every 30 seconds. */
export const CollectorLoop = Layer.scopedDiscard(
  Effect.flatMap(Collector, (collector) => everyThirtySeconds("collector", "federation.collector", collector.run()))
)
