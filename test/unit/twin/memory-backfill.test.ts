/**
 * Local first: a memory is stored whether or not the embed tier answers, searched by words until
 * it has a vector, and embedded by the backfill on its next tick (Effect's TestClock drives it).
 * The twin's services over an in-memory database and the real Models bound to a scripted server.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Queue from "effect/Queue"
import * as TestClock from "effect/TestClock"
import { MemoryBackfill } from "../../../extensions/twin/backfill.ts"
import { Memories } from "../../../extensions/twin/memories.ts"
import { TwinBindings } from "../../../extensions/twin/ports.ts"
import { embedByMeaning } from "../../support/meanings.ts"
import { startOpenAiServer, type OpenAiServer } from "../../support/openai-server.ts"
import { ada, twinServices, untilAsleep } from "../../support/twin.ts"

const interval = 60_000
let models: OpenAiServer

beforeAll(async () => {
  models = await startOpenAiServer()
})
afterAll(() => models.close())
beforeEach(() => {
  models.reset()
  models.handle("embeddings", embedByMeaning([["dog", "retriever", "puppy"]]))
})

const twin = (embedBound: boolean) =>
  twinServices(
    Layer.mergeAll(Memories.Default, MemoryBackfill.Default),
    Layer.succeed(TwinBindings, {
      embed: { available: embedBound, model: "text-embedding-3-small", leavesDevice: true },
      cheapAvailable: true
    }),
    models.baseUrl,
    { memoryBackfillIntervalMs: interval }
  )

const fact = (content: string) => ({ content, kind: "fact" as const, importance: 0.5, tags: [], source: "manual" })

describe("the embedding backfill", () => {
  it.scoped(
    "embeds on its next tick a memory stored while the embed tier failed; search finds it by meaning then",
    () =>
      Effect.gen(function* () {
        yield* ada
        const memories = yield* Memories
        const passes = yield* (yield* MemoryBackfill).passes
        models.script("embeddings", { error: { status: 503, message: "warming up" } })

        const { memory, stored } = yield* memories.store("ada", fact("Ada walks her golden retriever."), {
          skipNearDuplicates: true
        })
        expect(stored).toBe(true)
        expect(yield* memories.embeddings("ada")).toMatchObject({ embedded: 0, total: 1, degraded: true })
        expect(yield* memories.search("ada", { q: "puppy" })).toEqual({ memories: [], mode: "hybrid" })
        expect((yield* memories.search("ada", { q: "retriever" })).memories).toEqual([memory])

        yield* untilAsleep
        yield* TestClock.adjust(interval - 1)
        expect(yield* Queue.poll(passes)).toMatchObject({ _tag: "None" })
        yield* TestClock.adjust(1)
        expect(yield* Queue.take(passes)).toBe(1)

        expect(yield* memories.embeddings("ada")).toMatchObject({ embedded: 1, total: 1, degraded: false })
        expect((yield* memories.search("ada", { q: "puppy" })).memories).toEqual([memory])
      }).pipe(Effect.provide(twin(true)))
  )

  it.scoped("with no embed binding stores, searches by words only and calls no model, on every tick", () =>
    Effect.gen(function* () {
      yield* ada
      const memories = yield* Memories
      const passes = yield* (yield* MemoryBackfill).passes
      const { memory } = yield* memories.store("ada", fact("Ada walks her golden retriever."), {
        skipNearDuplicates: true
      })
      expect(yield* memories.search("ada", { q: "retriever" })).toEqual({ memories: [memory], mode: "words" })
      expect(yield* memories.search("ada", { q: "puppy" })).toEqual({ memories: [], mode: "words" })
      yield* untilAsleep
      yield* TestClock.adjust(interval)
      expect(yield* Queue.take(passes)).toBe(0)
      expect(models.requestsFor("embeddings")).toEqual([])
      expect(yield* memories.embeddings(null)).toMatchObject({
        available: false,
        embedded: 0,
        total: 1,
        degraded: true
      })
    }).pipe(Effect.provide(twin(false)))
  )
})
