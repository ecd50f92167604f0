/**
 * The relay loop on Effect's TestClock over an in-memory SQLite, against a relay played by a
 * test double that answers with a real key: it enrols at once (the profile read, then the
 * enrolment), collects every 30 seconds, and renews only when less than six hours of the
 * enrolment are left (this relay grants six hours and 45 seconds). Without SVC_RELAY_ENDPOINT it asks nothing of
 * anyone.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Queue from "effect/Queue"
import * as TestClock from "effect/TestClock"
import { PeerTransport, PeerUnreachable } from "../../../extensions/federation/contract/ports.ts"
import type { RelayEnrol } from "../../../extensions/federation/contract/relay.ts"
import { RelayClient, RelayLoop } from "../../../extensions/federation/relay/client.ts"
import { FederationSettings } from "../../../extensions/federation/settings.ts"
import { digestOf, signPayload } from "../../../extensions/federation/wire/signed.ts"
import { descriptorOf, newKeyPair } from "../../support/federation.ts"
import { inMemoryNode, iso, signedProfileOf, unusedPorts } from "../../support/federation-loop.ts"

const RELAY = "http://relay.test"
const relayKey = newKeyPair()

/** The relay's side, played with its own key: a profile, an enrolment for a day, empty collections. */
const relayDouble = (asked: Queue.Queue<string>, enrols: boolean) =>
  Layer.succeed(PeerTransport, {
    get: (endpoint, path) =>
      Effect.gen(function* () {
        yield* Queue.offer(asked, `GET ${path}`)
        const now = yield* TestClock.currentTimeMillis
        const runs = [{ name: "relay.enrolment", path: "/api/federation/relay/enrolment", protocol: 2 }]
        return endpoint === RELAY
          ? { status: 200, json: signedProfileOf(relayKey, now, runs) }
          : yield* new PeerUnreachable({ reason: "no such host" })
      }),
    post: (_, path, body) =>
      Effect.gen(function* () {
        yield* Queue.offer(asked, `POST ${path}`)
        const now = yield* TestClock.currentTimeMillis
        const request = body as RelayEnrol
        const node = descriptorOf(relayKey, RELAY)
        if (path.endsWith("/enrolment") && !enrols) {
          return {
            status: 200,
            json: {
              v: 1,
              relay: null,
              mailbox: null,
              limits: null,
              expiresAt: null,
              held: 0,
              accepted: false,
              reason: "Not enrolled.",
              node: null,
              attestation: null
            }
          }
        }
        if (path.endsWith("/enrolment")) {
          const attestation = signPayload(
            {
              v: 1,
              type: "svc.attestation",
              did: relayKey.did,
              aud: request.descriptor.payload.did,
              about: digestOf(request.challenges[0]),
              issuedAt: iso(now)
            },
            relayKey.secretKey
          )
          return {
            status: 200,
            json: {
              v: 1,
              relay: relayKey.did,
              mailbox: request.descriptor.payload.did,
              limits: { maxQueued: 256, maxDocumentBytes: 65536, holdSeconds: 604800 },
              // Six hours and 45 seconds: the loop renews once less than six hours are left, a minute on.
              expiresAt: iso(now + 6 * 3600_000 + 45_000),
              held: 0,
              accepted: true,
              reason: "Enrolled.",
              node,
              attestation
            }
          }
        }
        return {
          status: 200,
          json: { v: 1, protocol: 2, node, envelopes: [], remaining: 0, acked: 0, accepted: true, reason: "Collected." }
        }
      })
  })

const nodeWith = (relayEndpoint: Option.Option<string>, enrols = true) =>
  Effect.gen(function* () {
    const asked = yield* Queue.unbounded<string>()
    const ports = Layer.mergeAll(relayDouble(asked, enrols), unusedPorts, FederationSettings.layer({ relayEndpoint }))
    const layer = inMemoryNode(RelayClient.Default, ports)
    return { asked, layer }
  })

const takeAll = (queue: Queue.Queue<string>) => Effect.map(Queue.takeAll(queue), (chunk) => [...chunk])

describe("the relay loop", () => {
  it.scoped("enrols at once, collects every 30 seconds, and renews only when the enrolment runs low", () =>
    Effect.gen(function* () {
      const { asked, layer } = yield* nodeWith(Option.some(RELAY))
      yield* Effect.gen(function* () {
        yield* Layer.launch(RelayLoop).pipe(Effect.forkScoped)
        // t = 0: the profile, the enrolment, a collection.
        expect([yield* Queue.take(asked), yield* Queue.take(asked), yield* Queue.take(asked)]).toEqual([
          "GET /api/federation/capabilities",
          "POST /api/federation/relay/enrolment",
          "POST /api/federation/relay/collect"
        ])
        const client = yield* RelayClient
        expect(yield* client.state()).toMatchObject({
          endpoint: RELAY,
          relayDid: relayKey.did,
          enrolled: true,
          lastError: null
        })
        expect(yield* takeAll(asked)).toEqual([])

        // t = 30 s: a collection, no enrolment.
        yield* TestClock.adjust("30 seconds")
        expect(yield* Queue.take(asked)).toBe("POST /api/federation/relay/collect")
        expect(yield* takeAll(asked)).toEqual([])

        // t = 60 s: less than six hours of the enrolment are left; the loop renews before it collects.
        yield* TestClock.adjust("30 seconds")
        expect([yield* Queue.take(asked), yield* Queue.take(asked), yield* Queue.take(asked)]).toEqual([
          "GET /api/federation/capabilities",
          "POST /api/federation/relay/enrolment",
          "POST /api/federation/relay/collect"
        ])
      }).pipe(Effect.provide(layer))
    })
  )

  it.scoped(
    "asks a relay that refused it again five minutes on, not every 30 seconds, and keeps why as lastError",
    () =>
      Effect.gen(function* () {
        const { asked, layer } = yield* nodeWith(Option.some(RELAY), false)
        yield* Effect.gen(function* () {
          yield* Layer.launch(RelayLoop).pipe(Effect.forkScoped)
          expect([yield* Queue.take(asked), yield* Queue.take(asked)]).toEqual([
            "GET /api/federation/capabilities",
            "POST /api/federation/relay/enrolment"
          ])
          const client = yield* RelayClient
          expect(yield* client.state()).toMatchObject({
            relayDid: null,
            enrolled: false,
            lastError: "The relay did not enrol this node: Not enrolled."
          })
          yield* TestClock.adjust("270 seconds")
          expect(yield* takeAll(asked)).toEqual([])
          yield* TestClock.adjust("30 seconds")
          expect([yield* Queue.take(asked), yield* Queue.take(asked)]).toEqual([
            "GET /api/federation/capabilities",
            "POST /api/federation/relay/enrolment"
          ])
        }).pipe(Effect.provide(layer))
      })
  )

  it.scoped("asks nothing of anyone without SVC_RELAY_ENDPOINT", () =>
    Effect.gen(function* () {
      const { asked, layer } = yield* nodeWith(Option.none())
      yield* Effect.gen(function* () {
        yield* Layer.launch(RelayLoop).pipe(Effect.forkScoped)
        yield* TestClock.adjust("90 seconds")
        expect(yield* takeAll(asked)).toEqual([])
        const client = yield* RelayClient
        expect(yield* client.state()).toMatchObject({ endpoint: null, relayDid: null, enrolled: false })
        expect(yield* client.enrol()).toMatchObject({
          accepted: false,
          reason: expect.stringContaining("SVC_RELAY_ENDPOINT")
        })
      }).pipe(Effect.provide(layer))
    })
  )
})
