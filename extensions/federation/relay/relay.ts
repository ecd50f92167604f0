/**
 * This node as a relay (FEDERATION_RELAY; docs/federation.md "The relay"): it holds sealed
 * envelopes for the nodes enrolled with it and hands them to exactly the node that proves its
 * key. Enrolment is open to the nodes this node's owner added as peers (not blocked), with the
 * same proof as a peer's collect; the mailbox is always the enrolled node's own did, and no field
 * of a body names one: a deposit is filed under its envelope's audience, a collect reads the
 * mailbox of the did that just proved itself. A relay opens nothing (it holds no key to the
 * seals), and a stranger, or any node when this one is not a relay, learns nothing of any
 * mailbox.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { nowMillis } from "../../../kernel/time.ts"
import { PeerDirectory } from "../contract/ports.ts"
import type {
  DepositReceipt,
  DepositRefusal,
  RelayEnrol,
  RelayEnrolmentAnswer,
  RelayLimits
} from "../contract/relay.ts"
import { CURRENT_PROTOCOL, SealedEnvelope, type PeerCollect, type PeerCollection } from "../contract/wire.ts"
import { NodeDocuments } from "../documents.ts"
import { KeyProofs } from "../proof.ts"
import { RelayMailboxRepository } from "../repositories/relay-mailbox-repository.ts"
import { FederationSettings } from "../settings.ts"
import { utf8 } from "../wire/encoding.ts"
import { canonical } from "../wire/jcs.ts"
import { digestOf, verifiedBy } from "../wire/signed.ts"
import { fnNamed } from "../../../kernel/spans.ts"

/** How long an enrolment runs; the enrolled node renews it well before (relay/client.ts). */
export const ENROLMENT_MS = 24 * 60 * 60 * 1000
/** How long a deposited envelope is held, collected or not (a week: a laptop closed over a holiday weekend). */
const HOLD_SECONDS = 7 * 24 * 60 * 60
/** Envelopes handed in one collection, as a peer's collect. */
const HANDED = 16

const Body = Schema.Struct({ envelope: Schema.Unknown })
const Versioned = Schema.Struct({ protocol: Schema.Unknown, type: Schema.Unknown })
const decodeBody = Schema.decodeUnknownOption(Body)
const decodeVersioned = Schema.decodeUnknownOption(Versioned)
const decodeSealed = Schema.decodeUnknownOption(SealedEnvelope)

const emptyCollection = (reason: string): PeerCollection => ({
  v: 1,
  protocol: CURRENT_PROTOCOL,
  node: null,
  envelopes: [],
  remaining: 0,
  acked: 0,
  accepted: false,
  reason
})
const NOTHING = "Nothing is held for that address here."

export class Relay extends Effect.Service<Relay>()("federation/Relay", {
  dependencies: [RelayMailboxRepository.Default, NodeDocuments.Default, KeyProofs.Default],
  effect: Effect.gen(function* () {
    const mailboxes = yield* RelayMailboxRepository
    const documents = yield* NodeDocuments
    const proofs = yield* KeyProofs
    const directory = yield* PeerDirectory
    const settings = yield* FederationSettings
    const sql = yield* SqlClient.SqlClient
    const limits: RelayLimits = {
      maxQueued: settings.relayMaxQueued,
      maxDocumentBytes: settings.maxDocumentBytes,
      holdSeconds: HOLD_SECONDS
    }
    const isoAt = (ms: number) => new Date(ms).toISOString()

    const refuseEnrolment = (reason: string): RelayEnrolmentAnswer => ({
      v: 1,
      relay: null,
      mailbox: null,
      limits: null,
      expiresAt: null,
      held: 0,
      accepted: false,
      reason,
      node: null,
      attestation: null
    })

    /** What this node fronts as a relay, for its capability profile: none when it is not one. */
    const fronts = Effect.gen(function* () {
      if (!settings.relayOn) return { on: false, fronts: [], maxQueued: 0 }
      const rows = yield* mailboxes.fronts(isoAt(yield* nowMillis))
      return { on: true, fronts: rows.map((row) => row.did), maxQueued: limits.maxQueued }
    })

    const enrol = fnNamed("federation.relayEnrolment")(function* (request: RelayEnrol) {
      if (!settings.relayOn) return refuseEnrolment("This node is not a relay.")
      if (request.protocol < CURRENT_PROTOCOL)
        return refuseEnrolment("A relay holds sealed envelopes only (protocol 2).")
      const proof = yield* proofs.check(request)
      if ("refused" in proof)
        return refuseEnrolment(
          proof.refused === "busy" ? "Busy; enrol again in a few minutes." : "This relay does not enrol that address."
        )
      const did = proof.proved
      const peer = yield* directory.find(did)
      if (Option.isNone(peer) || peer.value.status === "blocked")
        return refuseEnrolment("This relay does not enrol that address.")
      const now = yield* nowMillis
      const expiresAt = isoAt(now + ENROLMENT_MS)
      yield* mailboxes.enrol({ did, enrolledAt: isoAt(now), expiresAt })
      return {
        v: 1,
        relay: documents.nodeDid as RelayEnrolmentAnswer["relay"],
        mailbox: did as RelayEnrolmentAnswer["mailbox"],
        limits,
        expiresAt,
        held: yield* mailboxes.waiting(did),
        accepted: true,
        reason: "Enrolled: envelopes sealed to your did are held here for you.",
        node: yield* documents.descriptor,
        attestation: yield* documents.attestation(did, digestOf(request.challenges[0]))
      } satisfies RelayEnrolmentAnswer
    })

    const deposit = fnNamed("federation.relayDeposit")(function* (input: unknown) {
      const now = yield* nowMillis
      const at = isoAt(now)
      let digest: string | null = null
      const refuse = (code: DepositRefusal, reason: string): DepositReceipt => ({
        accepted: false,
        digest,
        code,
        reason,
        at
      })

      const body = decodeBody(input)
      if (Option.isNone(body)) return refuse("malformed", "The body is not { envelope }.")
      const versioned = decodeVersioned(body.value.envelope)
      if (Option.isNone(versioned))
        return refuse("malformed", "The envelope is not an object with a protocol and a type.")
      if (versioned.value.protocol !== CURRENT_PROTOCOL || versioned.value.type !== "svc.envelope.sealed") {
        return refuse("protocol_unsupported", "A relay holds sealed envelopes only (protocol 2, svc.envelope.sealed).")
      }
      const decoded = decodeSealed(body.value.envelope)
      if (Option.isNone(decoded)) return refuse("malformed", "The envelope is not of protocol 2's shape.")
      const envelope = decoded.value
      digest = digestOf(envelope)
      const mailbox = envelope.audience
      if (!settings.relayOn || !(yield* mailboxes.enrolled({ mailbox, at }))) {
        return refuse("not_enrolled", "No node with that did is enrolled at this relay.")
      }
      if (!verifiedBy(envelope.descriptor, envelope.descriptor.payload.did))
        return refuse("bad_descriptor", "The descriptor is not signed by its did.")
      if (utf8(canonical(envelope)).length > limits.maxDocumentBytes) {
        return refuse("too_large", `The envelope is larger than this relay holds (${limits.maxDocumentBytes} bytes).`)
      }
      const outcome = yield* sql
        .withTransaction(
          Effect.gen(function* () {
            yield* mailboxes.purge(at)
            if ((yield* mailboxes.waiting(mailbox)) >= limits.maxQueued) return "mailbox_full" as const
            const stored = yield* mailboxes.deposit({
              mailbox,
              digest: digest!,
              envelope,
              at,
              expiresAt: isoAt(now + HOLD_SECONDS * 1000)
            })
            return stored ? ("held" as const) : ("replayed" as const)
          })
        )
        .pipe(Effect.orDie)
      if (outcome === "mailbox_full")
        return refuse(
          "mailbox_full",
          `That node's mailbox holds ${limits.maxQueued} envelopes already; try again later.`
        )
      if (outcome === "replayed") return refuse("replayed", "This envelope was deposited before; it is held once.")
      return { accepted: true, digest, code: null, reason: "Held for its audience.", at } satisfies DepositReceipt
    })

    const collect = fnNamed("federation.relayCollect")(function* (request: PeerCollect) {
      if (!settings.relayOn) return emptyCollection(NOTHING)
      if (request.protocol < CURRENT_PROTOCOL)
        return emptyCollection("A relay hands over sealed envelopes only (protocol 2).")
      const proof = yield* proofs.check(request)
      if ("refused" in proof)
        return emptyCollection(proof.refused === "busy" ? "Busy; collect again in a few minutes." : NOTHING)
      const mailbox = proof.proved
      const at = isoAt(yield* nowMillis)
      if (!(yield* mailboxes.enrolled({ mailbox, at }))) return emptyCollection(NOTHING)
      const acked = yield* mailboxes.acknowledge({ mailbox, digests: request.ack })
      const rows = yield* mailboxes.collectable({ mailbox, limit: HANDED })
      yield* mailboxes.markHanded({ mailbox, digests: rows.map((row) => row.digest) })
      const remaining = (yield* mailboxes.waiting(mailbox)) - rows.length
      return {
        v: 1,
        protocol: CURRENT_PROTOCOL,
        node: yield* documents.descriptor,
        envelopes: rows.map((row) => row.envelope),
        remaining,
        acked,
        accepted: true,
        reason: "Collected."
      } satisfies PeerCollection
    })

    return { limits, fronts, enrol, deposit, collect } as const
  })
}) {}
