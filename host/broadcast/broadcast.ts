/**
 * Messages between the processes that share one PostgreSQL database, over LISTEN/NOTIFY on one
 * channel (docs/decisions.md, "Events across processes"). Each process LISTENs on its own
 * connection (listener.ts; listened again with backoff when it drops) and hands what other processes sent to its
 * subscribers; what it sent itself comes
 * back too and is skipped by its origin id. NOTIFY takes payloads shorter than 8,000 bytes: a
 * larger message is written to `broadcast_overflow` and only its row's id is notified.
 *
 * On SQLite there is one process: sending does nothing and nothing is ever received.
 */
import * as PgClient from "@effect/sql-pg/PgClient"
import * as Clock from "effect/Clock"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as PubSub from "effect/PubSub"
import * as Schedule from "effect/Schedule"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import { randomUUID } from "node:crypto"
import { Broadcast, type BroadcastShape } from "../../kernel/broadcast.ts"
import { isoIn, nowIso } from "../../kernel/time.ts"
import { Envelope, type BroadcastBody } from "./messages.ts"
import { BroadcastRepository } from "./broadcast-repository.ts"
import { listenOnce } from "./listener.ts"
import { fnNamed } from "../../kernel/spans.ts"

/** The one channel every process listens on. */
export const BROADCAST_CHANNEL = "node_broadcast"

/** PostgreSQL's NOTIFY payload must be shorter than this many bytes (its default build). */
export const NOTIFY_PAYLOAD_LIMIT = 8000

/**
 * Listening again after a drop: at once, then doubling up to every five seconds, for ever; a
 * minute without a drop starts it over, so a drop days later is not held to the five seconds.
 */
const RELISTEN_BACKOFF = Schedule.union(
  Schedule.exponential(Duration.millis(100)),
  Schedule.spaced(Duration.seconds(5))
).pipe(Schedule.resetAfter(Duration.minutes(1)))

/** Overflow rows live this long: every listener reads its row within moments of the notification. */
const OVERFLOW_KEPT_MS = 60_000

const decodeEnvelope = Schema.decodeUnknown(Schema.parseJson(Envelope))
const decodeBody = Schema.decodeUnknown(Schema.parseJson(Envelope.members[0]))

/** The kernel's `Broadcast` (kernel/broadcast.ts): the channel over PostgreSQL, or alone on SQLite. */
export const BroadcastLive = Layer.scoped(
  Broadcast,
  Effect.gen(function* () {
    const received = yield* PubSub.unbounded<BroadcastBody>()
    const subscribe = PubSub.subscribe(received)
    const pg = yield* Effect.serviceOption(PgClient.PgClient)
    if (Option.isNone(pg)) {
      const alone: BroadcastShape<BroadcastBody> = { active: false, send: () => Effect.void, subscribe }
      return alone
    }
    const client = pg.value
    const repository = yield* BroadcastRepository
    // Random, not the pid: processes on two machines can share a pid.
    const origin = randomUUID()
    const listening = yield* Deferred.make<void>()

    const sendNow = fnNamed("broadcast.send")(function* (body: BroadcastBody) {
      const text = JSON.stringify({ origin, body })
      if (Buffer.byteLength(text) < NOTIFY_PAYLOAD_LIMIT)
        return yield* repository.notify({ channel: BROADCAST_CHANNEL, payload: text })
      const id = randomUUID()
      yield* repository.sweep(yield* isoIn(-OVERFLOW_KEPT_MS))
      yield* repository.insert({ id, payload: text, createdAt: yield* nowIso })
      yield* repository.notify({ channel: BROADCAST_CHANNEL, payload: JSON.stringify({ origin, overflow: id }) })
    })

    /** Sends to every other process; a failure is logged, never the caller's (the local work is done). */
    const send = (body: BroadcastBody) =>
      sendNow(body).pipe(Effect.catchAllCause((cause) => Effect.logWarning("broadcast: could not notify", cause)))

    const receive = (text: string) =>
      Effect.gen(function* () {
        const envelope = yield* decodeEnvelope(text)
        if (envelope.origin === origin) {
          if ("body" in envelope && envelope.body.kind === "hello") yield* Deferred.succeed(listening, undefined)
          return
        }
        if ("body" in envelope) return yield* PubSub.publish(received, envelope.body)
        const row = yield* repository.find(envelope.overflow)
        if (Option.isNone(row))
          return yield* Effect.logWarning("broadcast: a large message was swept before it was read")
        const full = yield* decodeBody(row.value.payload)
        yield* PubSub.publish(received, full.body)
      }).pipe(Effect.catchAllCause((cause) => Effect.logWarning("broadcast: a message could not be read", cause)))

    // Every connection after the first follows a deaf spell: what was sent meanwhile is lost, so
    // the subscribers hear `listen.resumed` and drop what they keep from other processes' writes.
    let connections = 0
    const onListening = Effect.suspend(() => {
      connections += 1
      if (connections === 1) return Effect.void
      return Effect.zipRight(
        Effect.logInfo("broadcast: listening again"),
        PubSub.publish(received, { kind: "listen.resumed" })
      )
    })
    yield* Stream.runForEach(listenOnce(client.config, BROADCAST_CHANNEL, onListening), receive).pipe(
      Effect.tapErrorCause((cause) =>
        Effect.logWarning("broadcast: the listen connection dropped; listening again", cause)
      ),
      Effect.retry(RELISTEN_BACKOFF),
      Effect.withClock(Clock.make()),
      Effect.forkScoped
    )
    // Until our own hello comes back, LISTEN may not be in place and another process's event lost;
    // the listening fiber may not even have run yet, so the hello is repeated until it is heard.
    const hello = Effect.repeat(send({ kind: "hello" }), Schedule.spaced(Duration.millis(100)))
    // On the wall clock: a test's clock that never moves must not hold the start up.
    yield* Effect.raceFirst(Deferred.await(listening), hello).pipe(
      Effect.timeout(Duration.seconds(10)),
      Effect.catchAll(() => Effect.logWarning("broadcast: our own hello did not come back within 10 s")),
      Effect.withClock(Clock.make())
    )
    const shared: BroadcastShape<BroadcastBody> = { active: true, send, subscribe }
    return shared
  })
).pipe(Layer.provide(BroadcastRepository.Default))
