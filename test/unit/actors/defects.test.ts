import * as ClusterSchema from "@effect/cluster/ClusterSchema"
import * as Entity from "@effect/cluster/Entity"
import * as Rpc from "@effect/rpc/Rpc"
import * as SqlClient from "@effect/sql/SqlClient"
import { describe, expect, it } from "@effect/vitest"
import * as Cause from "effect/Cause"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as LogLevel from "effect/LogLevel"
import * as Schema from "effect/Schema"
import * as Scope from "effect/Scope"
import { entityLayer } from "../../../kernel/actors/index.ts"
import { actorRuntime } from "./actor-runtime.ts"

const Fragile = Entity.make("Fragile", [
  Rpc.make("Remember", { payload: { note: Schema.String } }),
  Rpc.make("Notes", { success: Schema.Array(Schema.String) }),
  Rpc.make("Die"),
  Rpc.make("Throw"),
  Rpc.make("DieDurably", { payload: { id: Schema.String }, primaryKey: ({ id }) => id }).annotate(
    ClusterSchema.Persisted,
    true
  )
])

const Unbuildable = Entity.make("Unbuildable", [Rpc.make("Ping")])

/** How many times each handler (or build) ran, as the test sees it from outside the runtime. */
const runs = new Map<string, number>()
const ran = (name: string) => Effect.sync(() => runs.set(name, (runs.get(name) ?? 0) + 1))

const FragileLive = entityLayer(
  Fragile,
  Effect.sync(() => {
    const notes: Array<string> = []
    return Fragile.of({
      Remember: ({ payload }) => Effect.sync(() => void notes.push(payload.note)),
      Notes: () => Effect.sync(() => [...notes]),
      Die: () => ran("Die").pipe(Effect.zipRight(Effect.die(new Error("Die went wrong")))),
      Throw: (): Effect.Effect<void> => {
        runs.set("Throw", (runs.get("Throw") ?? 0) + 1)
        throw new Error("Throw went wrong")
      },
      DieDurably: () => ran("DieDurably").pipe(Effect.zipRight(Effect.die(new Error("DieDurably went wrong"))))
    })
  })
)

const UnbuildableLive = entityLayer(
  Unbuildable,
  ran("Unbuildable").pipe(Effect.zipRight(Effect.die(new Error("cannot load state"))))
)

const runtime = Layer.mergeAll(FragileLive, UnbuildableLive).pipe(Layer.provideMerge(actorRuntime()))

/** Builds the runtime, runs the test in it, then shuts it down and says how long that took. */
const inRuntime = <A, E>(test: Effect.Effect<A, E, Layer.Layer.Success<typeof runtime>>) =>
  Effect.gen(function* () {
    const scope = yield* Scope.make()
    const context = yield* Layer.buildWithScope(runtime, scope)
    yield* Effect.provide(test, context)
    const [shutdown] = yield* Effect.timed(Scope.close(scope, Exit.void))
    return Duration.toMillis(shutdown)
  })

/** The reply, or a timeout failure if the runtime keeps retrying instead of answering. */
const answer = <A, E, R>(call: Effect.Effect<A, E, R>) => call.pipe(Effect.timeout("3 seconds"), Effect.exit)

const diedWith = (exit: Exit.Exit<unknown, unknown>, message: string) => {
  expect(Exit.isFailure(exit) && Cause.isDie(exit.cause)).toBe(true)
  expect(Exit.isFailure(exit) && Cause.pretty(exit.cause)).toContain(message)
}

describe("an entity that dies of a defect", () => {
  it.live("fails that message once, keeps its state and still answers; shutdown is prompt", () =>
    Effect.gen(function* () {
      runs.clear()
      const shutdownMillis = yield* inRuntime(
        Effect.gen(function* () {
          const fragile = (yield* Fragile.client)("f")
          yield* fragile.Remember({ note: "before" })
          diedWith(yield* answer(fragile.Die()), "Die went wrong")
          diedWith(yield* answer(fragile.Throw()), "Throw went wrong")
          yield* fragile.Remember({ note: "after" })
          expect(yield* fragile.Notes()).toEqual(["before", "after"])
          expect(runs.get("Die")).toBe(1)
          expect(runs.get("Throw")).toBe(1)
        })
      )
      expect(shutdownMillis).toBeLessThan(1000)
    })
  )

  it.live("stores the defect as the reply of a persisted message and never redelivers it", () =>
    Effect.gen(function* () {
      runs.clear()
      const shutdownMillis = yield* inRuntime(
        Effect.gen(function* () {
          const fragile = (yield* Fragile.client)("f")
          diedWith(yield* answer(fragile.DieDurably({ id: "m1" })), "DieDurably went wrong")
          // the same primary key is the same message: its stored outcome, not a new attempt
          diedWith(yield* answer(fragile.DieDurably({ id: "m1" })), "DieDurably went wrong")
          expect(runs.get("DieDurably")).toBe(1)
          const sql = yield* SqlClient.SqlClient
          const rows = yield* sql<{ processed: number; replies: number }>`
            SELECT m.processed, (SELECT count(*) FROM cluster_replies r WHERE r.request_id = m.request_id) AS replies
            FROM cluster_messages m WHERE m.tag = 'DieDurably'`
          expect(rows).toEqual([{ processed: 1, replies: 1 }])
        })
      )
      expect(shutdownMillis).toBeLessThan(1000)
    })
  )

  it.live("answers every message with the defect when it cannot be built, instead of rebuilding forever", () =>
    Effect.gen(function* () {
      runs.clear()
      const shutdownMillis = yield* inRuntime(
        Effect.gen(function* () {
          const unbuildable = (yield* Unbuildable.client)("u")
          diedWith(yield* answer(unbuildable.Ping()), "cannot load state")
          diedWith(yield* answer(unbuildable.Ping()), "cannot load state")
          expect(runs.get("Unbuildable")).toBe(1)
        })
      ).pipe(Logger.withMinimumLogLevel(LogLevel.None))
      expect(shutdownMillis).toBeLessThan(1000)
    })
  )
})
