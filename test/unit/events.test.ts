import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Queue from "effect/Queue"
import * as Schema from "effect/Schema"
import { NodeEvent } from "../../host/contract/events.ts"
import { EventBus } from "../../kernel/events.ts"
import { EventBusLive } from "../../host/events.ts"

describe("event bus", () => {
  it.scoped("delivers each event with its audience to every subscriber", () =>
    Effect.gen(function* () {
      const bus = yield* EventBus
      const first = yield* bus.subscribe
      const second = yield* bus.subscribe
      yield* bus.publish({ kind: "being", beingId: "b1" }, { type: "presence.update", beingId: "b1", status: "online" })
      yield* bus.publish({ kind: "all" }, { type: "ambient", mood: { valence: 0, arousal: 0.3, label: "calm" } })
      for (const queue of [first, second]) {
        const deliveries = yield* Queue.takeAll(queue)
        expect([...deliveries].map((d) => [d.audience.kind, d.event.type])).toEqual([
          ["being", "presence.update"],
          ["all", "ambient"]
        ])
      }
    }).pipe(Effect.provide(EventBusLive))
  )

  it.scoped("calls a listener in the publisher's turn, past one that throws, until its scope ends", () =>
    Effect.gen(function* () {
      const bus = yield* EventBus
      const heard: Array<string> = []
      const subscriber = yield* bus.subscribe
      const online = { type: "presence.update", beingId: "b1", status: "online" } as const
      yield* Effect.scoped(
        Effect.gen(function* () {
          yield* bus.listen(() => {
            throw new Error("a broken listener")
          })
          yield* bus.listen((delivery) => heard.push(delivery.event.type))
          // Heard before publish returns: no other fiber had a turn in between.
          yield* Effect.zipRight(
            bus.publish({ kind: "being", beingId: "b1" }, online),
            Effect.sync(() => heard.push("after publish"))
          )
        })
      )
      yield* bus.publish({ kind: "all" }, online)
      expect(heard).toEqual(["presence.update", "after publish"])
      expect((yield* Queue.takeAll(subscriber)).length).toBe(2)
    }).pipe(Effect.provide(EventBusLive))
  )

  it("types every event of the spec's table and refuses an unknown one", () => {
    const decode = Schema.decodeUnknownEither(NodeEvent)
    // Records the node makes are typed: an empty one is refused.
    for (const [type, field] of [
      ["signal.created", "signal"],
      ["signal.updated", "signal"],
      ["task.updated", "task"],
      ["project.updated", "project"],
      ["trace", "event"],
      ["memory.created", "memory"],
      ["wallet.updated", "wallet"],
      ["square.post", "post"],
      ["ambient", "mood"],
      ["message.created", "message"],
      ["thread.updated", "thread"]
    ] as const) {
      expect(decode({ type, [field]: {} })._tag, type).toBe("Left")
    }
    expect(decode({ type: "message.tool", threadId: "t", messageId: "m", toolCall: {} })._tag).toBe("Left")
    expect(decode({ type: "square.retracted", postId: "p" })._tag).toBe("Right")
    const trace = {
      id: "1",
      projectId: "p",
      taskId: null,
      kind: "plan",
      agentId: null,
      text: "planned",
      data: null,
      at: new Date().toISOString()
    }
    expect(decode({ type: "trace", event: trace })._tag).toBe("Right")
    expect(decode({ type: "hello", beingId: "b", serverTime: new Date().toISOString() })._tag).toBe("Right")
    expect(decode({ type: "message.delta", threadId: "t", messageId: "m", delta: "hi" })._tag).toBe("Right")
    expect(decode({ type: "presence.update", beingId: "b", status: "away" })._tag).toBe("Left")
    expect(decode({ type: "twin.activity", kind: "gossip", summary: "s", at: new Date().toISOString() })._tag).toBe(
      "Left"
    )
    expect(decode({ type: "twin.activity", kind: "learned", summary: "s", at: new Date().toISOString() })._tag).toBe(
      "Right"
    )
    expect(decode({ type: "nonsense" })._tag).toBe("Left")
  })
})
