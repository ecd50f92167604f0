/**
 * The scheduler on Effect's TestClock over a real SQLite file: a job fires when the clock reaches
 * it and not before, moving or cancelling a key is honoured, a failing handler is tried again
 * later, and a job whose time passed while the node was down fires when it comes back.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Queue from "effect/Queue"
import * as TestClock from "effect/TestClock"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { databaseLayer } from "../../../kernel/database.ts"
import { Settings } from "../../../kernel/settings.ts"
import { accountMigrations } from "../../../extensions/accounts/migrations.ts"
import { timeMigrations } from "../../../extensions/time/migrations.ts"
import { retryDelayMs, Scheduler, SchedulerLive, type ScheduledJob } from "../../../extensions/time/scheduler.ts"

const schedulerOver = (filename: string) =>
  SchedulerLive.pipe(
    Layer.provideMerge(databaseLayer({ ...accountMigrations, ...timeMigrations }, { filename })),
    Layer.provide(Settings.layerWith({}))
  )

const inMemory = schedulerOver(":memory:")

const at = (ms: number) => new Date(ms)

/** A handler that records what fired and lets the test wait for each firing. */
const recorder = Effect.gen(function* () {
  const fired: Array<string> = []
  const firings = yield* Queue.unbounded<ScheduledJob>()
  const handler = (job: ScheduledJob) =>
    Effect.suspend(() => {
      fired.push(job.key)
      return Queue.offer(firings, job)
    })
  return { fired, handler, nextFiring: Queue.take(firings) }
})

describe("the scheduler", () => {
  it.scoped("fires a job when the clock reaches its time, not before", () =>
    Effect.gen(function* () {
      const scheduler = yield* Scheduler
      const { fired, handler, nextFiring } = yield* recorder
      yield* scheduler.register("test.ping", handler)
      yield* scheduler.schedule({ key: "a", kind: "test.ping", beingId: null, dueAt: at(60_000), payload: { n: 1 } })
      const firing = yield* Effect.fork(nextFiring)
      yield* TestClock.adjust("59 seconds")
      expect(fired).toEqual([])
      yield* TestClock.adjust("1 second")
      const job = yield* Fiber.join(firing)
      expect(job.payload).toEqual({ n: 1 })
      expect(fired).toEqual(["a"])
      // A fired job is gone.
      yield* Effect.yieldNow()
      expect(Option.isNone(yield* scheduler.find("a"))).toBe(true)
    }).pipe(Effect.provide(inMemory))
  )

  it.scoped("wakes for a job scheduled sooner, moves a key, and forgets a cancelled one", () =>
    Effect.gen(function* () {
      const scheduler = yield* Scheduler
      const { fired, handler, nextFiring } = yield* recorder
      yield* scheduler.register("test.ping", handler)
      yield* scheduler.schedule({ key: "late", kind: "test.ping", beingId: null, dueAt: at(3_600_000), payload: null })
      yield* scheduler.schedule({ key: "gone", kind: "test.ping", beingId: null, dueAt: at(10_000), payload: null })
      yield* scheduler.schedule({ key: "soon", kind: "test.ping", beingId: null, dueAt: at(20_000), payload: null })
      yield* scheduler.cancel("gone")
      // Moved from an hour to thirty seconds.
      yield* scheduler.schedule({ key: "late", kind: "test.ping", beingId: null, dueAt: at(30_000), payload: null })
      let firing = yield* Effect.fork(nextFiring)
      yield* TestClock.adjust("20 seconds")
      expect((yield* Fiber.join(firing)).key).toBe("soon")
      firing = yield* Effect.fork(nextFiring)
      yield* TestClock.adjust("10 seconds")
      expect((yield* Fiber.join(firing)).key).toBe("late")
      expect(fired).toEqual(["soon", "late"])
    }).pipe(Effect.provide(inMemory))
  )

  it.scoped("tries a failing job again later and leaves a kind nobody handles waiting", () =>
    Effect.gen(function* () {
      const scheduler = yield* Scheduler
      const done = yield* Deferred.make<number>()
      let tries = 0
      yield* scheduler.register("test.flaky", () =>
        Effect.suspend(() => {
          tries += 1
          return tries === 1 ? Effect.fail("not yet") : Deferred.succeed(done, tries)
        })
      )
      yield* scheduler.schedule({ key: "flaky", kind: "test.flaky", beingId: null, dueAt: at(1_000), payload: null })
      yield* scheduler.schedule({ key: "orphan", kind: "test.nobody", beingId: null, dueAt: at(1_000), payload: null })
      yield* TestClock.adjust("1 second")
      yield* TestClock.adjust(retryDelayMs(0))
      expect(yield* Deferred.await(done)).toBe(2)
      expect(Option.isSome(yield* scheduler.find("orphan"))).toBe(true)
    }).pipe(Effect.provide(inMemory))
  )

  it.effect("fires a job whose time passed while the node was down when it comes back", () =>
    Effect.gen(function* () {
      const dir = mkdtempSync(join(tmpdir(), "scheduler-"))
      const file = join(dir, "node.db")
      yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(dir, { recursive: true, force: true })))
      // First life: the job is written, and the node stops before its time.
      yield* Effect.scoped(
        Effect.flatMap(Scheduler, (scheduler) =>
          scheduler.schedule({
            key: "after-restart",
            kind: "test.ping",
            beingId: null,
            dueAt: at(120_000),
            payload: "hello"
          })
        ).pipe(Effect.provide(schedulerOver(file)))
      )
      yield* TestClock.adjust("5 minutes")
      // Second life: its time has passed; it fires as soon as a handler claims the kind.
      const job = yield* Effect.scoped(
        Effect.gen(function* () {
          const scheduler = yield* Scheduler
          const { handler, nextFiring } = yield* recorder
          yield* scheduler.register("test.ping", handler)
          return yield* nextFiring
        }).pipe(Effect.provide(schedulerOver(file)))
      )
      expect(job.payload).toBe("hello")
    }).pipe(Effect.scoped)
  )
})
