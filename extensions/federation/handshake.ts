/**
 * Both sides of the handshake (docs/federation.md "The handshake"). The dialling side builds a
 * hello and checks the greeting that answers it (the `Handshake` port, which the peer actor
 * calls); the answering side checks a hello and greets back: accepted only for a node its owner
 * added and has not blocked. A hello proves the caller's key, not its address, so answering one
 * changes nothing of the peer but when it was last seen.
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { Handshake, PeerDirectory, type GreetingCheck } from "./contract/ports.ts"
import { CURRENT_PROTOCOL, PeerGreeting, type DocumentCheck, type PeerHello } from "./contract/wire.ts"
import { NodeDocuments } from "./documents.ts"
import { digestOf, verifiedBy } from "./wire/signed.ts"
import { fnNamed } from "../../kernel/spans.ts"

const decodeGreeting = Schema.decodeUnknownOption(PeerGreeting)

const notVerified = (reason: string, accepted = false, check: DocumentCheck | null = null): GreetingCheck => ({
  verified: false,
  accepted,
  reason,
  check,
  skewSeconds: null,
  claims: null
})

export const HandshakeLive = Layer.effect(
  Handshake,
  Effect.gen(function* () {
    const documents = yield* NodeDocuments
    return {
      hello: (peerDid) =>
        Effect.gen(function* () {
          const challenge = yield* documents.challenge(peerDid)
          const hello: PeerHello = {
            v: 1,
            protocol: CURRENT_PROTOCOL,
            descriptor: yield* documents.descriptor,
            challenge
          }
          return { hello, challenge }
        }),
      checkGreeting: ({ greeting, peerDid, challenge, at }) =>
        Effect.sync(() => {
          const decoded = decodeGreeting(greeting)
          if (Option.isNone(decoded)) return notVerified("It did not answer with a greeting.")
          const { descriptor, attestation, accepted, reason } = decoded.value
          if (!accepted) return notVerified(`It did not accept this node: ${reason.slice(0, 200)}`)
          if (descriptor === null || attestation === null)
            return notVerified("Its greeting carries no descriptor or attestation.", true)
          if (descriptor.payload.did !== peerDid) {
            return notVerified(`It answered as another node (${descriptor.payload.did}), not the one added.`, true)
          }
          if (!verifiedBy(descriptor, peerDid)) return notVerified("Its descriptor is not signed by its did.", true)
          const expected = digestOf(challenge)
          const { payload } = attestation
          const problem =
            payload.did !== peerDid
              ? "Its attestation is signed for another node."
              : payload.aud !== challenge.payload.did
                ? "Its attestation is for another node than this one."
                : payload.about !== expected
                  ? "Its attestation is not about this node's challenge."
                  : !verifiedBy(attestation, peerDid)
                    ? "Its attestation's signature does not hold."
                    : null
          const check: DocumentCheck = {
            type: payload.type,
            signer: payload.did,
            digest: digestOf(attestation),
            valid: problem === null,
            reason: problem
          }
          if (problem !== null) return notVerified(problem, true, check)
          const issued = Date.parse(payload.issuedAt)
          return {
            verified: true,
            accepted: true,
            reason: "Verified: it holds the key of its did and answered this node's challenge.",
            check,
            skewSeconds: Number.isNaN(issued) ? null : Math.round((issued - at) / 1000),
            claims: {
              label: descriptor.payload.label,
              profile: descriptor.payload.profile,
              software: descriptor.payload.software,
              serves: descriptor.payload.serves
            }
          }
        })
    }
  })
)

export class Greetings extends Effect.Service<Greetings>()("federation/Greetings", {
  dependencies: [NodeDocuments.Default],
  effect: Effect.gen(function* () {
    const documents = yield* NodeDocuments
    const directory = yield* PeerDirectory

    const refuse = (reason: string): PeerGreeting => ({
      v: 1,
      protocol: CURRENT_PROTOCOL,
      descriptor: null,
      attestation: null,
      challenge: null,
      accepted: false,
      reason
    })

    /** The answer to a hello; a stranger or a blocked node learns no more than that it was not accepted. */
    const answer = fnNamed("federation.answerHello")(function* (hello: PeerHello) {
      const caller = hello.descriptor.payload.did
      if (!verifiedBy(hello.descriptor, caller)) return refuse("The descriptor is not signed by its did.")
      if (hello.challenge.payload.did !== caller || !verifiedBy(hello.challenge, caller)) {
        return refuse("The challenge is not signed by the descriptor's node.")
      }
      if (hello.challenge.payload.aud !== documents.nodeDid) return refuse("The challenge is for another node.")
      const peer = yield* directory.find(caller)
      if (Option.isNone(peer) || peer.value.status === "blocked") {
        return refuse("This node's owner has not added yours as a peer.")
      }
      yield* directory.seen(caller, new Date(yield* Clock.currentTimeMillis).toISOString())
      return {
        v: 1,
        protocol: CURRENT_PROTOCOL,
        descriptor: yield* documents.descriptor,
        attestation: yield* documents.attestation(caller, digestOf(hello.challenge)),
        challenge: yield* documents.challenge(caller),
        accepted: true,
        reason: "Accepted."
      } satisfies PeerGreeting
    })

    return { answer } as const
  })
}) {}
