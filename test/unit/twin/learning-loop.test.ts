/**
 * The learning loop on Effect's TestClock (it never sleeps for real): what the sources queued is
 * learned on the next tick in one batch per being and source, through the cheap tier of a
 * scripted model server; a failed call leaves the rows for a later pass after a doubling wait; no
 * cheap tier bound reads nothing; a source switched off queues nothing and loses what it had.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Queue from "effect/Queue"
import * as TestClock from "effect/TestClock"
import { LearningLoop } from "../../../extensions/twin/learning-loop.ts"
import { LearningQueue } from "../../../extensions/twin/learning-queue.ts"
import { Memories } from "../../../extensions/twin/memories.ts"
import { TwinBindings } from "../../../extensions/twin/ports.ts"
import { ActivityRepository } from "../../../extensions/twin/repositories/activity-repository.ts"
import { embedByMeaning } from "../../support/meanings.ts"
import { startOpenAiServer, type OpenAiServer } from "../../support/openai-server.ts"
import { ada, twinServices, untilAsleep } from "../../support/twin.ts"

const interval = 300_000
let models: OpenAiServer

beforeAll(async () => {
  models = await startOpenAiServer()
})
afterAll(() => models.close())
beforeEach(() => {
  models.reset()
  models.handle(
    "embeddings",
    embedByMeaning([
      ["dog", "retriever", "puppy"],
      ["tea", "oolong"]
    ])
  )
})

const twin = (cheapAvailable: boolean) =>
  twinServices(
    Layer.mergeAll(LearningLoop.Default, LearningQueue.Default, Memories.Default, ActivityRepository.Default),
    Layer.succeed(TwinBindings, {
      embed: { available: true, model: "text-embedding-3-small", leavesDevice: true },
      cheapAvailable
    }),
    models.baseUrl,
    { learnIntervalMs: interval }
  )

const extraction = (...contents: ReadonlyArray<string>) => ({
  content: JSON.stringify({
    memories: contents.map((content) => ({ content, kind: "fact", importance: 0.5, tags: [] }))
  })
})

/** Moves the clock by `ms` once the loop sleeps, and answers the next pass's count. */
const tickAfter = (passes: Queue.Dequeue<number>, ms: number) =>
  Effect.gen(function* () {
    yield* untilAsleep
    yield* TestClock.adjust(ms)
    return yield* Queue.take(passes)
  })

describe("the learning loop", () => {
  it.scoped("learns on its next tick from what was queued, in one batch, and empties the queue", () =>
    Effect.gen(function* () {
      yield* ada
      const queue = yield* LearningQueue
      const passes = yield* (yield* LearningLoop).passes
      yield* queue.enqueue("ada", "thread", "m1", "My dog Biscuit is a golden retriever.")
      yield* queue.enqueue("ada", "thread", "m2", "I drink oolong every afternoon.")
      // The same message again is not queued twice.
      yield* queue.enqueue("ada", "thread", "m1", "My dog Biscuit is a golden retriever.")
      expect((yield* queue.state("ada")).queued).toBe(2)
      models.script(
        "chat",
        extraction("Ada's dog Biscuit is a golden retriever.", "Ada drinks oolong in the afternoon.")
      )

      yield* untilAsleep
      yield* TestClock.adjust(interval - 1)
      expect(yield* Queue.poll(passes)).toMatchObject({ _tag: "None" })
      expect(yield* tickAfter(passes, 1)).toBe(1)

      const [asked, ...more] = models.requestsFor("chat")
      expect(more).toEqual([])
      expect(JSON.stringify(asked?.body.messages)).toContain("golden retriever.\\n\\n---\\n\\nI drink oolong")
      const memories = (yield* (yield* Memories).search("ada", { q: "Biscuit oolong" })).memories.map((memory) => [
        memory.content,
        memory.source
      ])
      expect(memories).toHaveLength(2)
      expect(memories).toContainEqual(["Ada's dog Biscuit is a golden retriever.", "Muse threads"])
      expect((yield* queue.state("ada")).queued).toBe(0)
      const activity = yield* (yield* ActivityRepository).list({
        beingId: "ada",
        kind: "learned",
        limit: 10,
        offset: 0
      })
      expect(activity.map((entry) => entry.summary)).toEqual(["Learned 2 memories from Muse threads"])

      // Nothing queued: the next tick asks nothing.
      expect(yield* tickAfter(passes, interval)).toBe(0)
      expect(models.requestsFor("chat")).toHaveLength(1)
    }).pipe(Effect.provide(twin(true)))
  )

  it.scoped("keeps a failed batch for a later pass after a doubling wait, then learns it", () =>
    Effect.gen(function* () {
      yield* ada
      const queue = yield* LearningQueue
      const passes = yield* (yield* LearningLoop).passes
      yield* queue.enqueue("ada", "mail", "mail_a:1", "Subject: tea\nThe oolong arrives Friday.")
      models.script("chat", { error: { status: 500, message: "boom" } })
      expect(yield* tickAfter(passes, interval)).toBe(0)
      expect((yield* queue.state("ada")).queued).toBe(1)
      expect(models.requestsFor("chat")).toHaveLength(1)

      // Waiting twice the interval: the next tick is too early, the one after reads it again.
      expect(yield* tickAfter(passes, interval)).toBe(0)
      expect(models.requestsFor("chat")).toHaveLength(1)
      models.script("chat", extraction("Ada's oolong arrives on Friday."))
      expect(yield* tickAfter(passes, interval)).toBe(1)
      expect(models.requestsFor("chat")).toHaveLength(2)
      expect((yield* queue.state("ada")).queued).toBe(0)
    }).pipe(Effect.provide(twin(true)))
  )

  it.scoped("gives a piece up after five failed calls, each after twice the wait before", () =>
    Effect.gen(function* () {
      yield* ada
      const queue = yield* LearningQueue
      const passes = yield* (yield* LearningLoop).passes
      yield* queue.enqueue("ada", "chat", "m9", "Something the model always refuses.")
      models.handle("chat", () => ({ error: { status: 500, message: "boom" } }))
      // Calls at ticks 1, 3, 7, 15 and 31 (waits of 2, 4, 8 and 16 intervals); the fifth failure gives it up.
      const calledAt: Array<number> = []
      for (let tick = 1; tick <= 31; tick++) {
        const before = models.requestsFor("chat").length
        yield* tickAfter(passes, interval)
        if (models.requestsFor("chat").length > before) calledAt.push(tick)
        if (tick === 30) expect((yield* queue.state("ada")).queued).toBe(1)
      }
      expect(calledAt).toEqual([1, 3, 7, 15, 31])
      expect((yield* queue.state("ada")).queued).toBe(0)
    }).pipe(Effect.provide(twin(true)))
  )

  it.scoped("with no cheap tier bound reads nothing and leaves the queue as it is", () =>
    Effect.gen(function* () {
      yield* ada
      const queue = yield* LearningQueue
      const passes = yield* (yield* LearningLoop).passes
      yield* queue.enqueue("ada", "file", "notes.md#abc", "notes.md\nBiscuit likes the beach.")
      expect(yield* tickAfter(passes, interval)).toBe(0)
      expect(models.requestsFor("chat")).toEqual([])
      expect((yield* queue.state("ada")).queued).toBe(1)
    }).pipe(Effect.provide(twin(false)))
  )

  it.scoped("queues nothing from a source switched off, and switching one off drops what it had queued", () =>
    Effect.gen(function* () {
      yield* ada
      const queue = yield* LearningQueue
      yield* queue.enqueue("ada", "thread", "m1", "My dog is Biscuit.")
      yield* queue.enqueue("ada", "chat", "m2", "Tea at four.")
      expect(yield* queue.update("ada", { sources: { thread: false } })).toEqual({
        sources: { thread: false, chat: true, mail: true, file: true },
        queued: 1
      })
      expect(yield* queue.enqueue("ada", "thread", "m3", "My dog is still Biscuit.")).toBe(false)
      expect((yield* queue.state("ada")).queued).toBe(1)
      yield* queue.update("ada", { sources: { thread: true } })
      expect(yield* queue.enqueue("ada", "thread", "m3", "My dog is still Biscuit.")).toBe(true)
      expect(yield* queue.state("ada")).toEqual({
        sources: { thread: true, chat: true, mail: true, file: true },
        queued: 2
      })
    }).pipe(Effect.provide(twin(true)))
  )
})
