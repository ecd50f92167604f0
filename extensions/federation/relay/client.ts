/**
 * This node reached through a relay (SVC_RELAY_ENDPOINT; no route sets it): the relay loop
 * enrols and renews before the enrolment runs out (after a failure, five minutes on), and
 * collects what the relay holds for this
 * node, running each envelope through the deliver ladder. The relay's did is learnt from its
 * signed capability profile and pinned at the first enrolment that held (its attestation about
 * this node's challenge proves the key); afterwards a different did at the same URL is refused,
 * and `lastError` says why. A new endpoint is a new relay: its did is pinned afresh.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { nowMillis } from "../../../kernel/time.ts"
import { PeerTransport } from "../contract/ports.ts"
import { RelayEnrolmentAnswer, type NodeRelayState, type RelayEnrol, type RelayEnrolment } from "../contract/relay.ts"
import { CURRENT_PROTOCOL } from "../contract/wire.ts"
import { Collector } from "../collector.ts"
import { everyThirtySeconds } from "../courier.ts"
import { NodeDocuments } from "../documents.ts"
import { RelayStateRepository, type StoredRelayState } from "../repositories/relay-state-repository.ts"
import { FederationSettings } from "../settings.ts"
import { pinnedProfile } from "../pinned-profile.ts"
import { digestOf, verifiedBy } from "../wire/signed.ts"
import { RELAY_PATHS } from "./facilities.ts"
import { fnNamed } from "../../../kernel/spans.ts"

/** Renew when less than this is left of the enrolment (a relay grants a day). */
const RENEW_BEFORE_MS = 6 * 60 * 60 * 1000
/**
 * After a failed enrolment the loop asks again this much later, not every 30 seconds (the owner's "enrol" asks at
 * once).
 */
const RETRY_ENROLMENT_MS = 5 * 60 * 1000

const decodeAnswer = Schema.decodeUnknownOption(RelayEnrolmentAnswer)

const refusal = (reason: string): RelayEnrolment => ({
  v: 1,
  relay: null,
  mailbox: null,
  limits: null,
  expiresAt: null,
  held: 0,
  accepted: false,
  reason
})

export class RelayClient extends Effect.Service<RelayClient>()("federation/RelayClient", {
  dependencies: [RelayStateRepository.Default, NodeDocuments.Default, Collector.Default],
  effect: Effect.gen(function* () {
    const stored = yield* RelayStateRepository
    const documents = yield* NodeDocuments
    const collector = yield* Collector
    const transport = yield* PeerTransport
    const settings = yield* FederationSettings
    const endpoint = Option.getOrNull(settings.relayEndpoint)
    const oneAtATime = yield* Effect.makeSemaphore(1)
    /** When the loop may try to enrol again after a failure (epoch ms). */
    let enrolAgainAt = 0

    /** The stored row as it holds for the configured endpoint: a pin made for another URL does not carry over. */
    const current = Effect.map(
      stored.find(),
      (row): StoredRelayState =>
        row.endpoint === endpoint
          ? row
          : { ...row, endpoint, relayDid: null, enrolledAt: null, expiresAt: null, limits: null, lastError: null }
    )

    const enrolledAt = (row: StoredRelayState, now: number) =>
      row.relayDid !== null && row.expiresAt !== null && Date.parse(row.expiresAt) > now

    const state = fnNamed("federation.relayState")(function* () {
      const row = yield* current
      const now = yield* nowMillis
      return { ...row, endpoint, enrolled: enrolledAt(row, now) } satisfies NodeRelayState
    })

    /** Enrols (or renews) at the configured relay; a failure is kept as lastError and answered as a refusal. */
    const enrolNow = Effect.gen(function* () {
      if (endpoint === null) return refusal("No relay is set (SVC_RELAY_ENDPOINT).")
      const row = yield* current
      const fail = (reason: string) => Effect.as(stored.save({ ...row, lastError: reason }), refusal(reason))

      const learnt = yield* pinnedProfile(transport, endpoint, RELAY_PATHS.capabilities, {
        what: "relay",
        pinned: row.relayDid,
        whenMoved: "pinned at the first enrolment; nothing was enrolled."
      })
      if ("refused" in learnt) return yield* fail(learnt.refused)
      const profile = learnt.profile
      const relayDid = profile.payload.did
      if (!profile.payload.runs.some((facility) => facility.path === RELAY_PATHS.enrolment)) {
        return yield* fail("That node does not run a relay.")
      }

      const challenge = yield* documents.challenge(relayDid)
      const request: RelayEnrol = {
        v: 1,
        protocol: CURRENT_PROTOCOL,
        descriptor: yield* documents.descriptor,
        attestation: yield* documents.attestation(relayDid, digestOf(challenge)),
        challenges: [challenge]
      }
      const answer = yield* Effect.either(transport.post(endpoint, RELAY_PATHS.enrolment, request))
      if (answer._tag === "Left") return yield* fail(`The relay did not answer: ${answer.left.reason}`)
      const enrolment = decodeAnswer(answer.right.json)
      if (answer.right.status !== 200 || Option.isNone(enrolment))
        return yield* fail(`The relay answered HTTP ${answer.right.status}, not an enrolment.`)
      const { node, attestation, ...granted } = enrolment.value
      if (!granted.accepted) return yield* fail(`The relay did not enrol this node: ${granted.reason.slice(0, 200)}`)
      const proved =
        node !== null &&
        node.payload.did === relayDid &&
        verifiedBy(node, relayDid) &&
        attestation !== null &&
        attestation.payload.did === relayDid &&
        attestation.payload.aud === documents.nodeDid &&
        attestation.payload.about === digestOf(challenge) &&
        verifiedBy(attestation, relayDid) &&
        granted.mailbox === documents.nodeDid
      if (!proved)
        return yield* fail("The relay's answer does not prove it holds the key of its did, or names another mailbox.")
      yield* stored.save({
        ...row,
        endpoint,
        relayDid,
        enrolledAt: new Date(yield* nowMillis).toISOString(),
        expiresAt: granted.expiresAt,
        limits: granted.limits,
        lastError: null
      })
      return granted
    })

    const enrol = fnNamed("federation.relayEnrol")(() => oneAtATime.withPermits(1)(enrolNow))

    /**
     * One pass of the relay loop: enrol or renew when due, then collect; answers how many
     * messages landed. Every envelope the ladder answered is acknowledged, a refused one too
     * (as a refusal by deliver would be final), so nothing is handed over forever.
     */
    const run = fnNamed("federation.relay")(() =>
      oneAtATime.withPermits(1)(
        Effect.gen(function* () {
          if (endpoint === null) return 0
          const now = yield* nowMillis
          let row = yield* current
          if ((!enrolledAt(row, now) || Date.parse(row.expiresAt!) - now < RENEW_BEFORE_MS) && now >= enrolAgainAt) {
            const enrolment = yield* enrolNow
            enrolAgainAt = enrolment.accepted ? 0 : now + RETRY_ENROLMENT_MS
            row = yield* current
          }
          if (!enrolledAt(row, now)) return 0
          const landed = yield* collector.collectFrom({
            did: row.relayDid!,
            endpoint,
            path: RELAY_PATHS.collect,
            reads: () => true,
            ackOf: (envelope) => digestOf(envelope)
          })
          if (landed > 0) yield* stored.count({ deposited: 0, collected: landed })
          return landed
        })
      )
    )

    return { state, enrol, run } as const
  })
}) {}

/** The relay loop on its own, every 30 seconds (nothing to do without SVC_RELAY_ENDPOINT). */
export const RelayLoop = Layer.scopedDiscard(
  Effect.flatMap(RelayClient, (client) => everyThirtySeconds("relay loop", "federation.relay", client.run()))
)
