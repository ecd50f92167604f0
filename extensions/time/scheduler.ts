/**
 * The node's one scheduler: a durable timer. Each due action is a row (scheduled_jobs), so a job
 * survives a restart and fires when the node comes back if its time passed meanwhile. One fiber
 * sleeps on Effect's Clock until the soonest job of a kind someone handles; scheduling, moving or
 * registering wakes it early. A job fires at least once: it is deleted after its handler succeeds,
 * so a crash in between fires it again, and handlers are written to be repeatable. A handler that
 * fails is tried again later, with a growing pause. Kinds nobody registered wait (a feature's
 * handler may register after boot), so nothing fires into the void.
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { ScheduledJobsRepository } from "./scheduled-jobs-repository.ts"
import { runSingleton, Singletons } from "../../kernel/actors/singletons.ts"
import { Wakes } from "../../kernel/actors/wakes.ts"
import {
  Scheduler,
  type JobHandler,
  type JobRequest,
  type ScheduledJob,
  type SchedulerShape
} from "./contract/scheduler.ts"
import { fnNamed, spanNamed } from "../../kernel/spans.ts"

export { Scheduler }
export type { JobHandler, JobRequest, ScheduledJob }

/** How many due jobs one pass takes before it looks at the clock again. */
const BATCH = 50
const FIRST_RETRY_MS = 60_000
const LONGEST_RETRY_MS = 3_600_000
/** How long the cluster's scheduler sleeps at most before it reads the jobs again. */
const CLUSTER_LOOK_MS = 60_000
/** The scheduler's name as a singleton and as a timer to wake. */
const SCHEDULER_TIMER = "time.scheduler"

export const retryDelayMs = (attempts: number) => Math.min(FIRST_RETRY_MS * 2 ** attempts, LONGEST_RETRY_MS)

/** The time feature's `Scheduler` (contract/scheduler.ts); the node builds it once. */
export const SchedulerLive = Layer.scoped(
  Scheduler,
  Effect.gen(function* () {
    const jobs = yield* ScheduledJobsRepository
    // In a cluster a job may be scheduled on another runner, whose nudge does not reach this one:
    // the loop looks at the table at least this often. Alone (a service test) the nudge is enough.
    const longestSleepMs = (yield* Singletons).clustered ? CLUSTER_LOOK_MS : Number.POSITIVE_INFINITY
    const handlers = new Map<string, JobHandler>()
    // The scheduler may run in another process of the cluster: a nudge reaches it there (kernel/actors/wakes.ts).
    const wakes = yield* Wakes
    const nudge = wakes.wake(SCHEDULER_TIMER)

    const fire = (job: ScheduledJob, handler: JobHandler) =>
      Effect.suspend(() => handler(job)).pipe(
        Effect.catchAllCause((cause) =>
          Effect.gen(function* () {
            const now = yield* Clock.currentTimeMillis
            yield* Effect.logWarning(`The scheduled job ${job.key} (${job.kind}) failed; it runs again later.`, cause)
            yield* jobs.retryLater({
              key: job.key,
              revision: job.revision,
              dueAt: new Date(now + retryDelayMs(job.attempts)).toISOString()
            })
            return false
          })
        ),
        Effect.flatMap((fired) =>
          fired === false ? Effect.void : jobs.removeFired({ key: job.key, revision: job.revision })
        ),
        spanNamed("scheduler.fire", { attributes: { kind: job.kind } })
      )

    /** Fires what is due, else sleeps until the soonest job or a wake-up, whichever comes first. */
    const pass = Effect.gen(function* () {
      const soonest = yield* jobs.soonest({ kinds: [...handlers.keys()], limit: BATCH })
      const now = yield* Clock.currentTimeMillis
      const due = soonest.filter((job) => Date.parse(job.dueAt) <= now)
      if (due.length > 0) {
        for (const job of due) {
          const handler = handlers.get(job.kind)
          if (handler !== undefined) yield* fire(job, handler)
        }
        return
      }
      const next = soonest[0]
      const woken = wakes.woken(SCHEDULER_TIMER)
      const sleepMs = Math.min(
        next === undefined ? Number.POSITIVE_INFINITY : Date.parse(next.dueAt) - now,
        longestSleepMs
      )
      if (sleepMs === Number.POSITIVE_INFINITY) yield* woken
      else yield* Effect.race(Effect.sleep(sleepMs), woken)
    })

    // One scheduler across the cluster: a job fires in one process, not in each (each would claim it).
    yield* runSingleton(SCHEDULER_TIMER, Effect.forever(pass))

    /** Claims a job kind; a kind claimed twice is a programming error (a defect). */
    const register = (kind: string, handler: JobHandler) =>
      Effect.suspend(() => {
        if (handlers.has(kind)) return Effect.dieMessage(`the scheduled job kind "${kind}" is registered twice`)
        handlers.set(kind, handler)
        return nudge
      })

    const schedule = fnNamed("scheduler.schedule")(function* (request: JobRequest) {
      const now = yield* Clock.currentTimeMillis
      yield* jobs.upsert({
        key: request.key,
        kind: request.kind,
        beingId: request.beingId,
        dueAt: request.dueAt.toISOString(),
        payload: request.payload,
        now: new Date(now).toISOString()
      })
      yield* nudge
    })

    const cancel = fnNamed("scheduler.cancel")(function* (key: string) {
      yield* jobs.remove(key)
      yield* nudge
    })

    return { register, schedule, cancel, find: jobs.find } satisfies SchedulerShape
  })
).pipe(Layer.provide(Layer.mergeAll(ScheduledJobsRepository.Default, Wakes.Default)))
