/**
 * The proof a node gives when it asks for what waits for it (a peer's collect, a relay's
 * enrolment and collect): its descriptor, 1..8 fresh challenges of its own to this node, each
 * used once, and its attestation about the first. Checked against the descriptor's did alone;
 * it proves the key, never the address. Used challenges are remembered while they are fresh, in
 * the database (every process of the node sees them), so a recorded request replayed proves nothing.
 */
import * as Effect from "effect/Effect"
import { nowMillis } from "../../kernel/time.ts"
import type { SignedAttestation, SignedChallenge, SignedNodeDescriptor } from "./contract/wire.ts"
import { NodeDocuments } from "./documents.ts"
import { UsedChallengesRepository } from "./repositories/used-challenges-repository.ts"
import { digestOf, verifiedBy } from "./wire/signed.ts"
import { fnNamed } from "../../kernel/spans.ts"

/** How far a challenge's issuedAt may be from this node's clock. */
const FRESH_MS = 5 * 60 * 1000
/** Challenges remembered against replay; beyond it a request is refused until old ones expire. */
const REMEMBERED = 10_000

export interface KeyProof {
  readonly descriptor: SignedNodeDescriptor
  readonly attestation: SignedAttestation
  readonly challenges: ReadonlyArray<SignedChallenge>
}

/** The did that proved itself, or why not (`busy`: too many challenges remembered; otherwise say nothing). */
export type ProofOutcome = { readonly proved: string } | { readonly refused: "invalid" | "busy" }

export class KeyProofs extends Effect.Service<KeyProofs>()("federation/KeyProofs", {
  dependencies: [NodeDocuments.Default, UsedChallengesRepository.Default],
  effect: Effect.gen(function* () {
    const documents = yield* NodeDocuments
    const used = yield* UsedChallengesRepository
    const iso = (millis: number) => new Date(millis).toISOString()

    const check = fnNamed("federation.checkProof")(function* (request: KeyProof) {
      const now = yield* nowMillis
      const prover = request.descriptor.payload.did
      const self = documents.nodeDid
      const invalid: ProofOutcome = { refused: "invalid" }
      if (!verifiedBy(request.descriptor, prover)) return invalid
      const digests = request.challenges.map(digestOf)
      const fresh = request.challenges.every((challenge) => {
        const issued = Date.parse(challenge.payload.issuedAt)
        return (
          challenge.payload.did === prover &&
          challenge.payload.aud === self &&
          Math.abs(issued - now) <= FRESH_MS &&
          verifiedBy(challenge, prover)
        )
      })
      const { payload } = request.attestation
      if (
        !fresh ||
        payload.did !== prover ||
        payload.aud !== self ||
        payload.about !== digests[0] ||
        !verifiedBy(request.attestation, prover)
      ) {
        return invalid
      }
      yield* used.sweep({ now: iso(now) })
      if ((yield* used.count()) + digests.length > REMEMBERED) return { refused: "busy" } satisfies ProofOutcome
      // Forgotten only once stale: by then the challenge fails the freshness check by itself.
      if (!(yield* used.spend({ digests, forgetAt: iso(now + 2 * FRESH_MS) }))) return invalid
      return { proved: prover } satisfies ProofOutcome
    })

    return { check } as const
  })
}) {}
