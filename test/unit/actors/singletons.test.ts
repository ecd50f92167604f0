/**
 * The node's timers as cluster singletons (kernel/actors/singletons.ts): a loop declared with
 * `runSingleton` is registered with the node's Sharding under its name and runs once; the twin's
 * own timers are declared that way. Two runners need PostgreSQL, so what is proven here is the
 * registration: the name is the cluster's, and Sharding starts the loop on the runner holding it.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Queue from "effect/Queue"
import * as Ref from "effect/Ref"
import * as Schedule from "effect/Schedule"
import * as TestClock from "effect/TestClock"
import { accountMigrations } from "../../../extensions/accounts/migrations.ts"
import { databaseLayer } from "../../../kernel/database.ts"
import { Settings } from "../../../kernel/settings.ts"
import { timeMigrations } from "../../../extensions/time/migrations.ts"
import { Scheduler, SchedulerLive } from "../../../extensions/time/scheduler.ts"
import { actorsLayer, runSingleton, singletonLayer, Singletons } from "../../../kernel/actors/index.ts"
import { MemoryBackfill } from "../../../extensions/twin/backfill.ts"
import { TwinBindings, InsightSignals } from "../../../extensions/twin/ports.ts"
import { Reflections } from "../../../extensions/twin/reflection.ts"
import { registered } from "../../support/singletons.ts"
import { twinServices, untilAsleep } from "../../support/twin.ts"
import { actorRuntime } from "./actor-runtime.ts"

describe("a loop declared with runSingleton", () => {
  it.scopedLive("is registered with the cluster under its name and runs once", () =>
    Effect.gen(function* () {
      const runs = yield* Ref.make(0)
      const started = yield* Queue.unbounded<void>()
      const loop = Effect.zipRight(
        Ref.update(runs, (n) => n + 1),
        Effect.zipRight(Queue.offer(started, undefined), Effect.never)
      )
      expect((yield* Singletons).clustered).toBe(true)
      expect(yield* registered("test.ticker")).toBe(false)

      yield* Layer.build(singletonLayer("test.ticker", loop))
      yield* Queue.take(started)
      expect(yield* registered("test.ticker")).toBe(true)
      // A second declaration in the same cluster does not start a second copy.
      expect(Exit.isFailure(yield* Effect.exit(Effect.scoped(runSingleton("test.ticker", loop))))).toBe(true)
      expect(yield* Ref.get(runs)).toBe(1)
    }).pipe(Effect.provide(actorRuntime()))
  )

  it.scoped("without a cluster (a service test) runs in the caller's scope, as a forked fiber did", () =>
    Effect.gen(function* () {
      const started = yield* Queue.unbounded<void>()
      expect((yield* Singletons).clustered).toBe(false)
      yield* runSingleton("test.ticker", Effect.zipRight(Queue.offer(started, undefined), Effect.never))
      yield* Queue.take(started)
    })
  )
  it.scoped("on a schedule runs at once and then at each step of it, a failed run logged and the next one kept", () =>
    Effect.gen(function* () {
      const runs = yield* Queue.unbounded<number>()
      const count = yield* Ref.make(0)
      const run = Effect.flatMap(
        Ref.updateAndGet(count, (n) => n + 1),
        (n) => Effect.zipRight(Queue.offer(runs, n), n === 2 ? Effect.fail("the second run fails") : Effect.void)
      )
      yield* runSingleton("test.every-minute", run, { schedule: Schedule.spaced("1 minute") })
      expect(yield* Queue.take(runs)).toBe(1)
      yield* untilAsleep
      yield* TestClock.adjust("1 minute")
      expect(yield* Queue.take(runs)).toBe(2)
      yield* untilAsleep
      yield* TestClock.adjust("1 minute")
      expect(yield* Queue.take(runs)).toBe(3)
    })
  )
})

describe("the twin's timers", () => {
  const ports = Layer.mergeAll(
    Layer.succeed(TwinBindings, {
      embed: { available: false, model: "none", leavesDevice: false },
      cheapAvailable: false
    }),
    Layer.succeed(InsightSignals, { raise: () => Effect.die("no insight is raised here") })
  )
  const twin = twinServices(
    Layer.mergeAll(Reflections.Default, MemoryBackfill.Default).pipe(Layer.provideMerge(actorsLayer())),
    ports,
    "http://127.0.0.1:9/v1"
  )

  it.scopedLive("are cluster singletons: the reflection rounds and the embedding backfill", () =>
    Effect.gen(function* () {
      expect(yield* registered("twin.reflection")).toBe(true)
      expect(yield* registered("twin.backfill")).toBe(true)
    }).pipe(Effect.provide(twin))
  )
})

describe("the scheduler (reminders, held signals, skill runs)", () => {
  const scheduler = SchedulerLive.pipe(
    Layer.provideMerge(actorsLayer()),
    Layer.provideMerge(databaseLayer({ ...accountMigrations, ...timeMigrations }, { filename: ":memory:" })),
    Layer.provide(Settings.layerWith({}))
  )

  it.scopedLive("is a cluster singleton, and fires a due job from there", () =>
    Effect.gen(function* () {
      expect(yield* registered("time.scheduler")).toBe(true)
      const fired = yield* Deferred.make<string>()
      const jobs = yield* Scheduler
      yield* jobs.register("test.ping", (job) => Deferred.succeed(fired, job.key))
      yield* jobs.schedule({
        key: "ping-1",
        kind: "test.ping",
        beingId: null,
        dueAt: new Date(Date.now() - 1000),
        payload: null
      })
      expect(yield* Deferred.await(fired)).toBe("ping-1")
    }).pipe(Effect.provide(scheduler))
  )
})
