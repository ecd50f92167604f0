import * as Entity from "@effect/cluster/Entity"
import * as Rpc from "@effect/rpc/Rpc"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import { entityLayer } from "../../../kernel/actors/index.ts"
import { actorRuntime } from "./actor-runtime.ts"

const Counter = Entity.make("Counter", [
  Rpc.make("Add", { payload: { amount: Schema.Number }, success: Schema.Number }),
  Rpc.make("Total", { success: Schema.Number })
])

const CounterLive = entityLayer(
  Counter,
  Effect.sync(() => {
    let total = 0
    return Counter.of({
      Add: ({ payload }) => Effect.sync(() => (total += payload.amount)),
      Total: () => Effect.sync(() => total)
    })
  })
)

describe("a volatile message", () => {
  it.live("is answered by its entity, which keeps its own state across messages", () =>
    Effect.gen(function* () {
      const counter = yield* Counter.client
      yield* counter("a").Add({ amount: 2 })
      yield* counter("a").Add({ amount: 3 })
      yield* counter("b").Add({ amount: 10 })
      expect(yield* counter("a").Total()).toBe(5)
      expect(yield* counter("b").Total()).toBe(10)
      expect(yield* counter("c").Total()).toBe(0)
    }).pipe(Effect.provide(CounterLive.pipe(Layer.provideMerge(actorRuntime()))))
  )
})
