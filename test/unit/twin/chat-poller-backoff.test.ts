/**
 * The chat bridge's poller backs off on the Effect Clock (chat-bridge/pollers.ts): a failing
 * `getUpdates` waits 1 s, then 2, 4... up to a minute, or as long as the Bot API's `retry_after`
 * asks when that is longer; a poll that succeeds starts the count again. The waits are read from
 * the TestClock's pending sleeps, so nothing here sleeps for real.
 */
import { afterEach, describe, expect, it } from "@effect/vitest"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Queue from "effect/Queue"
import * as Redacted from "effect/Redacted"
import * as Runtime from "effect/Runtime"
import * as TestClock from "effect/TestClock"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { ChatPollers } from "../../../extensions/twin/chat-bridge/pollers.ts"
import { ChatBot, MuseReplies } from "../../../extensions/twin/chat-bridge/ports.ts"
import { ChatBridgeSettings } from "../../../extensions/twin/chat-bridge/settings.ts"
import { NodeValues, TwinBindings } from "../../../extensions/twin/ports.ts"
import { twinServices } from "../../support/twin.ts"

/** What the scripted Bot API answers each getUpdates with, in turn; past the script, an empty ok. */
type Answer = { readonly status: number; readonly body: unknown }
const down: Answer = { status: 502, body: { ok: false, error_code: 502, description: "Bad Gateway" } }
const flooded = (seconds: number): Answer => ({
  status: 429,
  body: { ok: false, error_code: 429, description: "Too Many Requests", parameters: { retry_after: seconds } }
})
const fine: Answer = { status: 200, body: { ok: true, result: [] } }

let server: Server | undefined
afterEach(
  () =>
    new Promise<void>((resolve) => {
      if (server === undefined) return resolve()
      server.close(() => resolve())
    })
)

/** A Bot API that answers each poll from the script and announces it on `polls`; the last answer repeats. */
const scriptedBotApi = (script: ReadonlyArray<Answer>) =>
  Effect.gen(function* () {
    const polls = yield* Queue.unbounded<number>()
    const runtime = yield* Effect.runtime<never>()
    let count = 0
    server = createServer((request, response) => {
      request.resume()
      request.on("end", () => {
        const answer = script[Math.min(count, script.length - 1)]!
        count += 1
        response.writeHead(answer.status, { "content-type": "application/json" })
        response.end(JSON.stringify(answer.body))
        Runtime.runSync(runtime)(Queue.offer(polls, count))
      })
    })
    const listening = server
    yield* Effect.async<void>((resume) => {
      listening.listen(0, "127.0.0.1", () => resume(Effect.void))
    })
    return { polls, apiUrl: `http://127.0.0.1:${(listening.address() as AddressInfo).port}` }
  })

const pollers = (apiUrl: string) =>
  twinServices(
    ChatPollers.Default,
    Layer.mergeAll(
      Layer.succeed(TwinBindings, {
        embed: { available: false, model: "none", leavesDevice: false },
        cheapAvailable: false
      }),
      Layer.succeed(ChatBot, { apiUrl, serverToken: Option.some(Redacted.make("123:node")) }),
      Layer.succeed(MuseReplies, { ask: () => Effect.succeed("") }),
      Layer.succeed(NodeValues, { keep: (_key, value) => Effect.succeed(value) }),
      Layer.orDie(ChatBridgeSettings.layer({ chatAPollTimeoutSeconds: 1 }))
    ),
    "http://127.0.0.1:9"
  )

/** The poller's one pending wait, in ms from now, once it has gone to sleep after the poll it made. */
const nextWait = Effect.gen(function* () {
  while (Chunk.isEmpty(yield* TestClock.sleeps())) yield* Effect.yieldNow()
  const wakes = yield* TestClock.sleeps()
  expect(Chunk.size(wakes)).toBe(1)
  return Chunk.unsafeHead(wakes) - (yield* TestClock.currentTimeMillis)
})

describe("the chat bridge poller's backoff", () => {
  it.scoped("doubles from one second to a minute while the Bot API fails, and starts again after a good poll", () =>
    Effect.gen(function* () {
      const failures = Array.from({ length: 8 }, () => down)
      const api = yield* scriptedBotApi([...failures, fine, down])
      yield* Effect.gen(function* () {
        yield* ChatPollers
        const waits: Array<number> = []
        for (let poll = 1; poll <= 8; poll++) {
          expect(yield* Queue.take(api.polls)).toBe(poll)
          const wait = yield* nextWait
          waits.push(wait)
          // A moment short of the wait, the poller has not polled again.
          yield* TestClock.adjust(wait - 1)
          expect(Chunk.size(yield* TestClock.sleeps())).toBe(1)
          expect(yield* Queue.size(api.polls)).toBe(0)
          yield* TestClock.adjust(1)
        }
        expect(waits).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000])
        // The ninth poll succeeds and the next is made at once; the tenth fails and waits a second again.
        expect(yield* Queue.take(api.polls)).toBe(9)
        expect(yield* Queue.take(api.polls)).toBe(10)
        expect(yield* nextWait).toBe(1_000)
      }).pipe(Effect.provide(pollers(api.apiUrl)))
    })
  )

  it.scoped("waits as long as retry_after asks when that is longer than its own backoff", () =>
    Effect.gen(function* () {
      const api = yield* scriptedBotApi([flooded(7), flooded(1), down])
      yield* Effect.gen(function* () {
        yield* ChatPollers
        expect(yield* Queue.take(api.polls)).toBe(1)
        expect(yield* nextWait).toBe(7_000)
        yield* TestClock.adjust(7_000)
        // Its own backoff (2 s) is longer than the 1 s asked the second time.
        expect(yield* Queue.take(api.polls)).toBe(2)
        expect(yield* nextWait).toBe(2_000)
      }).pipe(Effect.provide(pollers(api.apiUrl)))
    })
  )
})
