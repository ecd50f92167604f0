/**
 * Reflection on Effect's TestClock: a round every ten minutes runs a pass only for a being with at
 * least three memories it has not read; a pass writes a thought activity, raises its insights
 * through the InsightSignals port and publishes widget suggestions, then marks the memories read.
 * The twin's services over an in-memory database and the real Models bound to a scripted server.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "@effect/vitest"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Queue from "effect/Queue"
import * as TestClock from "effect/TestClock"
import { EventBus } from "../../../kernel/events.ts"
import { Activity } from "../../../extensions/twin/activity.ts"
import { Memories } from "../../../extensions/twin/memories.ts"
import { InsightSignals, TwinBindings } from "../../../extensions/twin/ports.ts"
import { reflectionIntervalMs, Reflections } from "../../../extensions/twin/reflection.ts"
import { startOpenAiServer, type OpenAiServer } from "../../support/openai-server.ts"
import { ada, twinServices, untilAsleep } from "../../support/twin.ts"

let models: OpenAiServer
const raised: Array<{ beingId: string; title: string; body: string }> = []

beforeAll(async () => {
  models = await startOpenAiServer()
})
afterAll(() => models.close())
beforeEach(() => {
  models.reset()
  raised.length = 0
})

const insights = Layer.succeed(InsightSignals, {
  raise: (beingId, insight) =>
    Effect.sync(() => {
      raised.push({ beingId, ...insight })
      return { signalId: `signal-${raised.length}`, delivered: true }
    })
})

const twin = () =>
  twinServices(
    Layer.mergeAll(Reflections.Default, Memories.Default, Activity.Default),
    Layer.merge(
      Layer.succeed(TwinBindings, {
        embed: { available: false, model: "none", leavesDevice: false },
        cheapAvailable: true
      }),
      insights
    ),
    models.baseUrl
  )

const remember = (content: string) =>
  Effect.flatMap(Memories, (memories) =>
    memories.store(
      "ada",
      { content, kind: "episode", importance: 0.5, tags: [], source: "manual" },
      { skipNearDuplicates: false }
    )
  )

/** Waits until the round fiber sleeps, then moves the clock past its tick and takes the round's count. */
const nextRound = (rounds: Queue.Dequeue<number>) =>
  Effect.gen(function* () {
    yield* untilAsleep
    yield* TestClock.adjust(reflectionIntervalMs)
    return yield* Queue.take(rounds)
  })

const reflection = {
  thought: "You have been outdoors a lot this week.",
  insights: [{ title: "Book the kayak again?", body: "You enjoyed Sunday's paddle." }],
  widgets: [{ widgetType: "weather.forecast", reason: "You plan outdoor trips." }]
}

describe("reflection rounds", () => {
  it.scoped("run a pass every ten minutes only once three new memories arrived, then not again until three more", () =>
    Effect.gen(function* () {
      yield* ada
      const rounds = yield* (yield* Reflections).rounds
      const events = yield* (yield* EventBus).subscribe
      yield* remember("Paddled the river on Sunday.")
      yield* remember("Hiked to the lake on Tuesday.")
      expect(yield* nextRound(rounds)).toBe(0)
      expect(models.requestsFor("chat")).toEqual([])

      yield* remember("Cycled to work on Thursday.")
      models.script("chat", { content: JSON.stringify(reflection) })
      expect(yield* nextRound(rounds)).toBe(1)
      const [asked] = models.requestsFor("chat")
      expect(JSON.stringify(asked?.body.messages)).toContain("Cycled to work on Thursday.")
      expect(JSON.stringify(asked?.body.messages)).toContain("Paddled the river on Sunday.")
      expect(raised).toEqual([{ beingId: "ada", ...reflection.insights[0] }])
      const activity = yield* (yield* Activity).list("ada", {})
      expect(activity).toEqual([expect.objectContaining({ kind: "thought", summary: reflection.thought })])
      const published = Chunk.toReadonlyArray(yield* Queue.takeAll(events)).map((delivery) => delivery.event)
      expect(published).toContainEqual({
        type: "widget.suggest",
        widgetType: "weather.forecast",
        reason: "You plan outdoor trips."
      })
      expect(published).toContainEqual(expect.objectContaining({ type: "twin.activity", kind: "thought" }))

      expect(yield* nextRound(rounds)).toBe(0)
      yield* remember("Swam at noon.")
      yield* remember("Climbed on Friday.")
      expect(yield* nextRound(rounds)).toBe(0)
      expect(models.requestsFor("chat")).toHaveLength(1)
    }).pipe(Effect.provide(twin()))
  )

  it.scoped("a forced pass runs with fewer than three new memories; with no memory at all it calls no model", () =>
    Effect.gen(function* () {
      yield* ada
      const reflections = yield* Reflections
      expect(yield* reflections.reflect("ada", { force: true })).toEqual({
        ran: false,
        signals: [],
        widgets: [],
        thought: null
      })
      expect(models.requestsFor("chat")).toEqual([])
      yield* remember("Paddled the river on Sunday.")
      models.script("chat", { content: JSON.stringify(reflection) })
      expect(yield* reflections.reflect("ada", { force: true })).toEqual({
        ran: true,
        signals: ["signal-1"],
        widgets: reflection.widgets,
        thought: reflection.thought
      })
      // Read memories stay read for the rounds.
      expect(yield* reflections.reflect("ada", { force: false })).toMatchObject({ ran: false })
    }).pipe(Effect.provide(twin()))
  )
})
