import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import { TopicAccess } from "../../../kernel/live/topic-access.ts"
import { TopicAccessLive } from "../../../host/live/topics.ts"

describe("the topic registry", () => {
  it.effect("holds a subscription made while the node starts until every kind is claimed, then checks it", () =>
    Effect.gen(function* () {
      const topics = yield* TopicAccess
      // A socket subscribes before the feature that claims `thread` is up (the node listens first).
      const early = yield* Effect.fork(topics.check("b1", "thread:t1"))
      yield* Effect.yieldNow()
      expect(early.unsafePoll()).toBe(null)
      yield* topics.register("thread", (beingId, id) => Effect.succeed(beingId === "b1" && id === "t1"))
      yield* topics.allClaimed
      expect(yield* Fiber.join(early)).toBe(null)
      expect(yield* topics.check("b2", "thread:t1")).toMatchObject({ error: "topic_refused" })
      expect(yield* topics.check("b1", "nothing:t1")).toMatchObject({ error: "unknown_topic" })
    }).pipe(Effect.provide(TopicAccessLive))
  )
})
