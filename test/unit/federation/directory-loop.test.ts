/**
 * The directory loop on Effect's TestClock over an in-memory SQLite, against a directory played
 * by a test double that answers with a real key and lists for six hours and 45 seconds (a real
 * directory lists for a day; the loop's rule is the same): it registers at once (the profile
 * read, then the registration), asks nothing more while six hours or more of the listing are
 * left, and registers again at the first pass past that point, long before `expiresAt`. The
 * double grants credits on every registration; the node credits its owner once, and refuses a
 * receipt granting more than it accepts.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Queue from "effect/Queue"
import * as TestClock from "effect/TestClock"
import { PeerTransport, PeerUnreachable } from "../../../extensions/federation/contract/ports.ts"
import type { SignedRegistration } from "../../../extensions/federation/contract/directory.ts"
import {
  DirectoryClient,
  DirectoryCredits,
  DirectoryLoop,
  ListedHandles
} from "../../../extensions/federation/directory/client.ts"
import { FederationSettings } from "../../../extensions/federation/settings.ts"
import { digestOf, signPayload } from "../../../extensions/federation/wire/signed.ts"
import { newKeyPair } from "../../support/federation.ts"
import { inMemoryNode, iso, signedProfileOf, unusedPorts } from "../../support/federation-loop.ts"

const DIRECTORY = "http://directory.test"
const directoryKey = newKeyPair()
/** Six hours and 45 seconds: the loop's pass at 60 seconds is the first with less than six hours left. */
const LISTING = 6 * 3600_000 + 45_000

/** The directory's side, played with its own key: a profile, and a listing granting 7 credits each time. */
const directoryDouble = (asked: Queue.Queue<string>, credits: number) =>
  Layer.succeed(PeerTransport, {
    get: (endpoint, path) =>
      Effect.gen(function* () {
        yield* Queue.offer(asked, `GET ${path}`)
        const now = yield* TestClock.currentTimeMillis
        return endpoint === DIRECTORY
          ? { status: 200, json: signedProfileOf(directoryKey, now) }
          : yield* new PeerUnreachable({ reason: "no such host" })
      }),
    post: (_, path, body) =>
      Effect.gen(function* () {
        yield* Queue.offer(asked, `POST ${path}`)
        const now = yield* TestClock.currentTimeMillis
        const registration = body as SignedRegistration
        const receipt = signPayload(
          {
            v: 1,
            type: "svc.directory.receipt",
            did: directoryKey.did,
            aud: registration.payload.did,
            about: digestOf(registration),
            handles: registration.payload.handles,
            credits,
            expiresAt: iso(now + LISTING),
            issuedAt: iso(now)
          },
          directoryKey.secretKey
        )
        return { status: 200, json: { accepted: true, code: null, reason: "Listed.", receipt } }
      })
  })

const nodeWith = (credits = 7) =>
  Effect.gen(function* () {
    const asked = yield* Queue.unbounded<string>()
    const credited: Array<number> = []
    const ports = Layer.mergeAll(
      directoryDouble(asked, credits),
      unusedPorts,
      Layer.succeed(ListedHandles, { handles: Effect.succeed(["owner"]) }),
      Layer.succeed(DirectoryCredits, {
        credit: (amount) => Effect.sync(() => credited.push(amount)).pipe(Effect.as(true))
      }),
      FederationSettings.layer({ directoryEndpoint: Option.some(DIRECTORY) })
    )
    const layer = inMemoryNode(DirectoryClient.Default, ports)
    return { asked, credited, layer }
  })

const takeAll = (queue: Queue.Queue<string>) => Effect.map(Queue.takeAll(queue), (chunk) => [...chunk])

describe("the directory loop", () => {
  it.scoped("registers at once, and again on the clock once less than six hours of the listing are left", () =>
    Effect.gen(function* () {
      const { asked, credited, layer } = yield* nodeWith()
      yield* Effect.gen(function* () {
        yield* Layer.launch(DirectoryLoop).pipe(Effect.forkScoped)
        // t = 0: the profile, then the registration.
        expect([yield* Queue.take(asked), yield* Queue.take(asked)]).toEqual([
          "GET /api/federation/capabilities",
          "POST /api/federation/directory/register"
        ])
        const client = yield* DirectoryClient
        const first = yield* client.status()
        expect(first).toMatchObject({
          registered: true,
          directoryDid: directoryKey.did,
          handles: ["owner"],
          lastError: null,
          expiresAt: iso(LISTING),
          creditsClaimed: 7
        })

        // t = 30 s: six hours and 15 seconds are left: the pass asks nothing.
        yield* TestClock.adjust("30 seconds")
        expect(yield* takeAll(asked)).toEqual([])

        // t = 60 s: less than six hours are left; the loop registers again, long before expiresAt.
        yield* TestClock.adjust("30 seconds")
        expect([yield* Queue.take(asked), yield* Queue.take(asked)]).toEqual([
          "GET /api/federation/capabilities",
          "POST /api/federation/directory/register"
        ])
        const renewed = yield* client.status()
        expect(renewed).toMatchObject({
          registered: true,
          lastError: null,
          registeredAt: iso(60_000),
          expiresAt: iso(60_000 + LISTING)
        })
        // The double granted again; the node claims a directory's credits once in its life.
        expect(renewed.creditsClaimed).toBe(7)
        expect(credited).toEqual([7])
      }).pipe(Effect.provide(layer))
    })
  )

  it.scoped("refuses a receipt granting more than a node accepts, and credits nothing", () =>
    Effect.gen(function* () {
      const { asked, credited, layer } = yield* nodeWith(1_000_001)
      yield* Effect.gen(function* () {
        const client = yield* DirectoryClient
        const after = yield* client.register()
        expect(after).toMatchObject({
          directoryDid: null,
          lastError: "The directory answered HTTP 200, not a registration answer.",
          creditsClaimed: 0
        })
        expect(yield* takeAll(asked)).toEqual([
          "GET /api/federation/capabilities",
          "POST /api/federation/directory/register"
        ])
        expect(credited).toEqual([])
      }).pipe(Effect.provide(layer))
    })
  )
})
