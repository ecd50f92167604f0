/**
 * The holder's side of collect (the second document's rule 3; docs/federation.md "Collect"): a
 * node nobody can dial proves its key with fresh challenges of its own and its attestation, and
 * is handed the sealed direct messages waiting for exactly that address. The queue is keyed only
 * on the did that just proved itself (no field of the body names one); what was handed is
 * `sending` until the collector's next `ack` names its digest (at-least-once). A collector below
 * protocol 2 gets an empty collection; any refusal, a stranger's included, says nothing of any
 * queue. Proving the key is not proving the address: the peer's row is left as it was.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { nowMillis } from "../../kernel/time.ts"
import { PeerDirectory } from "./contract/ports.ts"
import { CURRENT_PROTOCOL, type PeerCollect, type PeerCollection } from "./contract/wire.ts"
import { sealedEnvelopeOf } from "./courier.ts"
import { NodeDocuments } from "./documents.ts"
import { MessagesRepository } from "./repositories/messages-repository.ts"
import { digestOf, verifiedBy } from "./wire/signed.ts"

/** How far a challenge's issuedAt may be from this node's clock. */
const FRESH_MS = 5 * 60 * 1000
/** Envelopes handed in one collection (each at most a few KB: the answer stays small). */
const HANDED = 16
/** Challenges remembered against replay; beyond it a collect is refused until old ones expire. */
const REMEMBERED = 10_000

const empty = (reason: string): PeerCollection =>
  ({ v: 1, protocol: CURRENT_PROTOCOL, node: null, envelopes: [], remaining: 0, acked: 0, accepted: false, reason })
const NOTHING = "Nothing is handed to that address here."

export class Collections extends Effect.Service<Collections>()("federation/Collections", {
  dependencies: [MessagesRepository.Default, NodeDocuments.Default],
  effect: Effect.gen(function* () {
    const messages = yield* MessagesRepository
    const documents = yield* NodeDocuments
    const directory = yield* PeerDirectory
    /** Challenge digests already used, with when they may be forgotten (after they went stale). */
    const used = new Map<string, number>()

    const answer = Effect.fn("federation.answerCollect")(function* (request: PeerCollect) {
      if (request.protocol < CURRENT_PROTOCOL) return empty("Collect hands over sealed envelopes only (protocol 2).")
      const now = yield* nowMillis
      const collector = request.descriptor.payload.did
      const self = documents.nodeDid
      if (!verifiedBy(request.descriptor, collector)) return empty(NOTHING)
      const digests = request.challenges.map(digestOf)
      const fresh = request.challenges.every((challenge, i) => {
        const issued = Date.parse(challenge.payload.issuedAt)
        return challenge.payload.did === collector && challenge.payload.aud === self && Math.abs(issued - now) <= FRESH_MS &&
          !used.has(digests[i]!) && verifiedBy(challenge, collector)
      })
      const { payload } = request.attestation
      if (!fresh || payload.did !== collector || payload.aud !== self || payload.about !== digests[0] || !verifiedBy(request.attestation, collector)) {
        return empty(NOTHING)
      }
      for (const [digest, until] of used) if (until < now) used.delete(digest)
      if (used.size + digests.length > REMEMBERED) return empty("Busy; collect again in a few minutes.")
      for (const digest of digests) used.set(digest, now + 2 * FRESH_MS)

      const peer = yield* directory.find(collector)
      if (Option.isNone(peer) || peer.value.status === "blocked") return empty(NOTHING)

      const at = new Date(now).toISOString()
      const acked = yield* messages.acknowledge({ peerDid: collector, digests: request.ack, at })
      const rows = yield* messages.collectable({ peerDid: collector, limit: HANDED })
      const descriptor = yield* documents.descriptor
      const envelopes = rows.flatMap((row) => {
        const envelope = sealedEnvelopeOf(descriptor, collector, row)
        return envelope === null ? [] : [envelope]
      })
      yield* Effect.forEach(rows, (row) =>
        messages.settle({ id: row.id, state: "sending", attempts: row.attempts + 1, nextAttemptAt: null, lastError: null, updatedAt: at }), { discard: true })
      const remaining = (yield* messages.waitingFor(collector)) - rows.length
      return {
        v: 1, protocol: CURRENT_PROTOCOL, node: descriptor, envelopes, remaining, acked, accepted: true, reason: "Collected."
      } satisfies PeerCollection
    })

    return { answer } as const
  })
}) {}
