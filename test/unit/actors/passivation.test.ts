import * as Entity from "@effect/cluster/Entity"
import * as Rpc from "@effect/rpc/Rpc"
import { describe, expect, it } from "@effect/vitest"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import { entityLayer } from "../../../kernel/actors/index.ts"
import { actorRuntime } from "./actor-runtime.ts"

const protocol = [Rpc.make("Touch", { success: Schema.Number })] as const
const Napper = Entity.make("Napper", protocol)
const Keeper = Entity.make("Keeper", protocol)

/** Counts the touches of one activation; the activation's scope closing is the passivation. */
const touchCounter = (passivated: Deferred.Deferred<void>) =>
  Effect.gen(function* () {
    yield* Effect.addFinalizer(() => Deferred.succeed(passivated, undefined))
    let touches = 0
    return { Touch: () => Effect.sync(() => ++touches) }
  })

describe("passivation", () => {
  it.live(
    "stops an entity idle for its kind's maxIdleTime and starts it afresh on the next message",
    () =>
      Effect.gen(function* () {
        const napperPassivated = yield* Deferred.make<void>()
        const keeperPassivated = yield* Deferred.make<void>()
        const maxIdleTime = Duration.millis(300)
        const runtime = Layer.mergeAll(
          entityLayer(Napper, touchCounter(napperPassivated), { maxIdleTime }),
          entityLayer(Keeper, touchCounter(keeperPassivated))
        ).pipe(Layer.provideMerge(actorRuntime()))

        yield* Effect.gen(function* () {
          const napper = (yield* Napper.client)("n")
          const keeper = (yield* Keeper.client)("k")
          expect(yield* napper.Touch()).toBe(1)
          expect(yield* napper.Touch()).toBe(2)
          expect(yield* keeper.Touch()).toBe(1)

          const [idle] = yield* Effect.timed(Deferred.await(napperPassivated).pipe(Effect.timeout("15 seconds")))
          expect(Duration.toMillis(idle)).toBeGreaterThanOrEqual(Duration.toMillis(maxIdleTime))
          // the kernel's default idle time is minutes: the other kind is still active
          expect(yield* Deferred.isDone(keeperPassivated)).toBe(false)
          expect(yield* keeper.Touch()).toBe(2)

          expect(yield* napper.Touch()).toBe(1)
        }).pipe(Effect.provide(runtime))
      }),
    20_000
  )
})
