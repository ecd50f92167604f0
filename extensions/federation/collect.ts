/**
 * The holder's side of collect (the second document's rule 3; docs/federation.md "Collect"): a
 * node nobody can dial proves its key with fresh challenges of its own and its attestation, and
 * is handed the sealed direct messages waiting for exactly that address. The queue is keyed only
 * on the did that just proved itself (no field of the body names one); what was handed is
 * `sending` until the collector's next `ack` names its digest (at-least-once). A collector below
 * protocol 2 gets an empty collection; any refusal, a stranger's included, says nothing of any
 * queue. Proving the key is not proving the address: the peer's row is left as it was, but for
 * when it last collected (`collectedAt`).
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { nowMillis } from "../../kernel/time.ts"
import { PeerDirectory } from "./contract/ports.ts"
import { CURRENT_PROTOCOL, type PeerCollect, type PeerCollection } from "./contract/wire.ts"
import { sealedEnvelopeOf } from "./courier.ts"
import { NodeDocuments } from "./documents.ts"
import { MessagesRepository } from "./repositories/messages-repository.ts"
import { KeyProofs } from "./proof.ts"
import { fnNamed } from "../../kernel/spans.ts"

/** Envelopes handed in one collection (each at most a few KB: the answer stays small). */
const HANDED = 16

const empty = (reason: string): PeerCollection => ({
  v: 1,
  protocol: CURRENT_PROTOCOL,
  node: null,
  envelopes: [],
  remaining: 0,
  acked: 0,
  accepted: false,
  reason
})
const NOTHING = "Nothing is handed to that address here."

export class Collections extends Effect.Service<Collections>()("federation/Collections", {
  dependencies: [MessagesRepository.Default, NodeDocuments.Default, KeyProofs.Default],
  effect: Effect.gen(function* () {
    const messages = yield* MessagesRepository
    const documents = yield* NodeDocuments
    const directory = yield* PeerDirectory
    const proofs = yield* KeyProofs

    const answer = fnNamed("federation.answerCollect")(function* (request: PeerCollect) {
      if (request.protocol < CURRENT_PROTOCOL) return empty("Collect hands over sealed envelopes only (protocol 2).")
      const proof = yield* proofs.check(request)
      if ("refused" in proof) return empty(proof.refused === "busy" ? "Busy; collect again in a few minutes." : NOTHING)
      const collector = proof.proved
      const now = yield* nowMillis

      const peer = yield* directory.find(collector)
      if (Option.isNone(peer) || peer.value.status === "blocked") return empty(NOTHING)

      const at = new Date(now).toISOString()
      // When it last collected: its row's collectedAt, nothing else of it (a key, not an address).
      yield* directory.collected(collector, at)
      const acked = yield* messages.acknowledge({ peerDid: collector, digests: request.ack, at })
      const rows = yield* messages.collectable({ peerDid: collector, limit: HANDED })
      const descriptor = yield* documents.descriptor
      const envelopes = rows.flatMap((row) => {
        const envelope = sealedEnvelopeOf(descriptor, collector, row)
        return envelope === null ? [] : [envelope]
      })
      yield* Effect.forEach(
        rows,
        (row) =>
          messages.settle({
            id: row.id,
            state: "sending",
            attempts: row.attempts + 1,
            nextAttemptAt: null,
            lastError: null,
            updatedAt: at
          }),
        { discard: true }
      )
      const remaining = (yield* messages.waitingFor(collector)) - rows.length
      return {
        v: 1,
        protocol: CURRENT_PROTOCOL,
        node: descriptor,
        envelopes,
        remaining,
        acked,
        accepted: true,
        reason: "Collected."
      } satisfies PeerCollection
    })

    return { answer } as const
  })
}) {}
