/**
 * The courier on Effect's TestClock over an in-memory SQLite: it runs every 30 seconds, backs
 * off a dead peer 30 s, 1 min, 2 min… up to an hour, spends one connection per run on a dead
 * peer however many messages wait for it, and after about two days gives the rows up as stuck
 * and calls the peer unreachable.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Queue from "effect/Queue"
import * as Schema from "effect/Schema"
import * as TestClock from "effect/TestClock"
import { FIRST_RETRY_MS, MAX_ATTEMPTS, RETRY_CEILING_MS, retryAfterMs } from "../../../extensions/federation/backoff.ts"
import {
  NodeAddress,
  PeerDirectory,
  PeerTransport,
  PeerUnreachable
} from "../../../extensions/federation/contract/ports.ts"
import type { Peer } from "../../../extensions/federation/contract/records.ts"
import { EnvelopeBody, type SealedEnvelope } from "../../../extensions/federation/contract/wire.ts"
import { Courier, CourierLoop } from "../../../extensions/federation/courier.ts"
import { MessagesRepository } from "../../../extensions/federation/repositories/messages-repository.ts"
import { RelayStateRepository } from "../../../extensions/federation/repositories/relay-state-repository.ts"
import { FederationSettings } from "../../../extensions/federation/settings.ts"
import { migrations } from "../../../host/migrations.ts"
import { databaseLayer } from "../../../kernel/database.ts"
import { Settings } from "../../../kernel/settings.ts"
import { sealingKeyOf } from "../../../extensions/federation/wire/did-key.ts"
import { utf8 } from "../../../extensions/federation/wire/encoding.ts"
import { openSeal } from "../../../extensions/federation/wire/seal.ts"
import { envelopeBody, newKeyPair } from "../../support/federation.ts"

const peerNode = newKeyPair()
const peer: Peer = {
  nodeDid: peerNode.did,
  endpoint: "http://dead.test",
  name: "dead",
  status: "verified",
  label: null,
  profile: null,
  software: null,
  serves: [],
  addedAt: "2026-01-01T00:00:00.000Z",
  verifiedAt: null,
  lastSeenAt: null,
  collectedAt: null,
  relay: null,
  lastError: null,
  publish: false
}

const RELAY = "http://relay.test"

/**
 * The ports on test doubles: every post to the peer fails and is told to `posts`; `unreachable`
 * records who was given up on. With `relay`, the peer names a relay that holds what it is given
 * while `relayTakes` says so, and refuses it as full otherwise.
 */
const doubles = (
  relay?: { readonly relayTakes: () => boolean },
  peerAnswers?: (json: unknown) => Effect.Effect<{ readonly status: number; readonly json: unknown }>
) =>
  Effect.gen(function* () {
    const posts = yield* Queue.unbounded<string>()
    const givenUp: Array<string> = []
    const peerOf = relay === undefined ? peer : { ...peer, relay: RELAY }
    const receipt = (accepted: boolean) => ({
      accepted,
      digest: null,
      code: accepted ? null : "mailbox_full",
      reason: accepted ? "Held." : "Full.",
      at: new Date(0).toISOString()
    })
    const ports = Layer.mergeAll(
      Layer.succeed(PeerTransport, {
        post: (endpoint, _path, json) =>
          Effect.zipRight(
            Queue.offer(posts, endpoint),
            endpoint === RELAY && relay !== undefined
              ? Effect.succeed({ status: 200, json: receipt(relay.relayTakes()) })
              : peerAnswers !== undefined
                ? peerAnswers(json)
                : Effect.fail(new PeerUnreachable({ reason: "connection refused" }))
          ),
        get: () => Effect.fail(new PeerUnreachable({ reason: "connection refused" }))
      }),
      Layer.succeed(PeerDirectory, {
        list: Effect.succeed([peerOf]),
        page: ({ offset }) => Effect.succeed(offset === 0 ? [peerOf] : []),
        find: (did) => Effect.succeed(did === peer.nodeDid ? Option.some(peerOf) : Option.none()),
        findMany: (dids) => Effect.succeed(dids.includes(peer.nodeDid) ? [peerOf] : []),
        seen: () => Effect.void,
        collected: () => Effect.void,
        unreachable: (did) => Effect.sync(() => void givenUp.push(did))
      }),
      Layer.succeed(NodeAddress, { endpoint: "http://me.test", label: "me", software: "test/1" }),
      FederationSettings.layer()
    )
    const layer = Layer.mergeAll(Courier.Default, MessagesRepository.Default, RelayStateRepository.Default).pipe(
      Layer.provideMerge(ports),
      Layer.provideMerge(databaseLayer(migrations, { filename: ":memory:" })),
      Layer.provide(Settings.layerWith({}))
    )
    return { posts, givenUp, layer }
  })

/** `count` due rows for the peer, the i-th saying `i` and in the conversation `threadOf(i)` (none: no thread). */
const queue = (count: number, threadOf: (i: number) => string | null = () => null) =>
  Effect.flatMap(MessagesRepository, (messages) =>
    Effect.forEach(
      Array.from({ length: count }, (_, i) => i),
      (i) => {
        const { digest, ...document } = envelopeBody({
          node: newKeyPair(),
          author: newKeyPair(),
          audience: peer.nodeDid,
          to: newKeyPair().did,
          body: String(i)
        })
        const at = new Date(0).toISOString()
        return messages.insert({
          row: {
            id: `row${i}`,
            direction: "out",
            kind: "message",
            threadId: threadOf(i),
            messageId: `m${i}`,
            peerDid: peer.nodeDid,
            authorDid: "a",
            audienceDid: "b",
            digest,
            sealed: true,
            state: "queued",
            attempts: 0,
            nextAttemptAt: at,
            lastError: null,
            verified: true,
            createdAt: at,
            updatedAt: at
          },
          document: Schema.decodeUnknownSync(EnvelopeBody)(document),
          localMessageId: null
        })
      }
    )
  )

const rows = Effect.flatMap(MessagesRepository, (messages) =>
  messages.outbox({ kind: "message", limit: 200, offset: 0 })
)

describe("the outbox's backoff", () => {
  it("doubles from 30 seconds to a one-hour ceiling and gives up after about two days", () => {
    const waits = Array.from({ length: MAX_ATTEMPTS }, (_, i) => retryAfterMs(i + 1))
    expect(waits.slice(0, 8)).toEqual([30_000, 60_000, 120_000, 240_000, 480_000, 960_000, 1_920_000, RETRY_CEILING_MS])
    expect(waits.at(-1)).toBeNull()
    const total = waits.reduce<number>((sum, wait) => sum + (wait ?? 0), 0)
    expect(total / 3_600_000).toBeGreaterThan(47)
    expect(total / 3_600_000).toBeLessThan(49)
    expect(retryAfterMs(1)).toBe(FIRST_RETRY_MS)
  })
})

describe("the courier", () => {
  it.scoped("runs every 30 seconds on the clock and spends one connection per run on a dead peer", () =>
    Effect.gen(function* () {
      const { posts, layer } = yield* doubles()
      yield* Effect.gen(function* () {
        yield* queue(3)
        yield* Layer.launch(CourierLoop).pipe(Effect.forkScoped)
        // t = 0: one post for the three rows; each waits 30 s now.
        expect(yield* Queue.take(posts)).toBe("http://dead.test")
        yield* TestClock.adjust("30 seconds")
        // t = 30 s: due again, one post; next wait a minute, so t = 60 s sends nothing.
        yield* Queue.take(posts)
        yield* TestClock.adjust("30 seconds")
        yield* TestClock.adjust("30 seconds")
        // t = 90 s: the third post, and the run at 60 s sent none.
        yield* Queue.take(posts)
        expect(yield* Queue.size(posts)).toBe(0)
        const courier = yield* Courier
        const quiet = yield* courier.run()
        expect(quiet).toMatchObject({ attempted: 0, unreachable: 0 })
        const waiting = yield* rows
        expect(waiting.map((row) => [row.state, row.attempts])).toEqual([
          ["queued", 3],
          ["queued", 3],
          ["queued", 3]
        ])
        expect(waiting.map((row) => Date.parse(row.nextAttemptAt!))).toEqual([210_000, 210_000, 210_000])
      }).pipe(Effect.provide(layer))
    })
  )

  it.scoped(
    "gives the rows up as stuck after the last attempt and calls the peer unreachable; a flush requeues them",
    () =>
      Effect.gen(function* () {
        const { givenUp, layer } = yield* doubles()
        yield* Effect.gen(function* () {
          yield* queue(2)
          const messages = yield* MessagesRepository
          for (const row of yield* rows) {
            yield* messages.settle({
              id: row.id,
              state: "queued",
              attempts: MAX_ATTEMPTS - 1,
              nextAttemptAt: row.createdAt,
              lastError: "x",
              updatedAt: row.createdAt
            })
          }
          const courier = yield* Courier
          const ran = yield* courier.run()
          expect(ran).toMatchObject({ attempted: 1, delivered: 0, unreachable: 2 })
          const stuck = yield* rows
          expect(stuck.map((row) => [row.state, row.attempts, row.nextAttemptAt])).toEqual([
            ["stuck", MAX_ATTEMPTS, null],
            ["stuck", MAX_ATTEMPTS, null]
          ])
          expect(stuck[0]!.lastError).toContain("about two days")
          expect(givenUp).toEqual([peer.nodeDid])

          const flushed = yield* courier.flush()
          expect(flushed).toMatchObject({ requeued: 2, attempted: 1, unreachable: 2, collected: 0, relayed: 0 })
          expect((yield* rows).map((row) => [row.state, row.attempts])).toEqual([
            ["queued", 1],
            ["queued", 1]
          ])
        }).pipe(Effect.provide(layer))
      })
  )
})

describe("the courier and a peer's relay", () => {
  it.scoped("tries the peer first, then leaves its messages at the relay it names, and counts them deposited", () =>
    Effect.gen(function* () {
      const { posts, layer } = yield* doubles({ relayTakes: () => true })
      yield* Effect.gen(function* () {
        yield* queue(3)
        const courier = yield* Courier
        expect(yield* courier.run()).toMatchObject({ attempted: 1, delivered: 3, unreachable: 0 })
        expect([...(yield* Queue.takeAll(posts))]).toEqual(["http://dead.test", RELAY, RELAY, RELAY])
        expect((yield* rows).map((row) => [row.state, row.attempts])).toEqual([
          ["delivered", 1],
          ["delivered", 1],
          ["delivered", 1]
        ])
        const relayState = yield* RelayStateRepository
        expect(yield* relayState.find()).toMatchObject({ deposited: 3, collected: 0 })
      }).pipe(Effect.provide(layer))
    })
  )

  it.scoped("stops at the relay's first refusal: that row and the rest back off, saying why", () =>
    Effect.gen(function* () {
      let room = 1
      const { posts, layer } = yield* doubles({ relayTakes: () => room-- > 0 })
      yield* Effect.gen(function* () {
        yield* queue(3)
        const courier = yield* Courier
        expect(yield* courier.run()).toMatchObject({ attempted: 1, delivered: 1, unreachable: 2 })
        expect([...(yield* Queue.takeAll(posts))]).toEqual(["http://dead.test", RELAY, RELAY])
        const after = yield* rows
        expect(after.map((row) => [row.state, row.attempts]).sort()).toEqual([
          ["delivered", 1],
          ["queued", 1],
          ["queued", 1]
        ])
        const waiting = after.find((row) => row.state === "queued")!
        expect(waiting.lastError).toContain("connection refused")
        expect(waiting.lastError).toContain("its relay refused it (mailbox_full")
      }).pipe(Effect.provide(layer))
    })
  )
})

describe("the courier and a peer that answers", () => {
  it.scoped("sends the run's first row alone, then the peer's conversations side by side, each in its order", () =>
    Effect.gen(function* () {
      const opening = sealingKeyOf(peerNode.secretKey)
      const said: Array<string> = []
      let inFlight = 0
      let most = 0
      /** The peer opens each envelope, notes what it says, and answers after other fibers had their turn. */
      const peerAnswers = (json: unknown) =>
        Effect.gen(function* () {
          inFlight += 1
          most = Math.max(most, inFlight)
          const { envelope } = json as { readonly envelope: SealedEnvelope }
          const opened = openSeal(envelope.seal, opening, utf8(envelope.audience))
          const inner = JSON.parse(new TextDecoder().decode(opened!)) as EnvelopeBody
          const { payload } = inner.message
          said.push("body" in payload ? payload.body : "")
          for (let turn = 0; turn < 5; turn++) yield* Effect.yieldNow()
          inFlight -= 1
          const receipt = {
            accepted: true,
            digest: null,
            code: null,
            reason: "Delivered.",
            at: new Date(0).toISOString(),
            check: null
          }
          return { status: 200, json: receipt }
        })
      const { layer } = yield* doubles(undefined, peerAnswers)
      yield* Effect.gen(function* () {
        // Rows 0, 2, 4 in one conversation, 1 and 3 in another, queued in that order.
        yield* queue(5, (i) => (i % 2 === 0 ? "thread-even" : "thread-odd"))
        const courier = yield* Courier
        expect(yield* courier.run()).toMatchObject({ attempted: 5, delivered: 5, unreachable: 0 })
        expect(said[0]).toBe("0")
        expect(said.filter((body) => Number(body) % 2 === 0)).toEqual(["0", "2", "4"])
        expect(said.filter((body) => Number(body) % 2 === 1)).toEqual(["1", "3"])
        expect(most).toBe(2)
        expect((yield* rows).every((row) => row.state === "delivered" && row.attempts === 1)).toBe(true)
      }).pipe(Effect.provide(layer))
    })
  )
})
