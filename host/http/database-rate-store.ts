/**
 * Rate-limit counts in the database, for a node of several processes: every process counts into
 * the same fixed one-minute windows, so a budget holds for the cluster as a whole. A fixed window
 * lets a burst straddling a minute's boundary reach twice the budget, once; the memory store's
 * windows open at each key's first hit instead, which would need a read before every write here.
 *
 * The class budgets (a login's guesses, a model's spend, uploads) are counted at once, one upsert
 * per hit: they are small and guard what must not be exceeded. The global budget, which every
 * request spends, is counted here first and written behind every FLUSH_EVERY, each address's hits
 * in one upsert that answers the cluster's count back: an upsert per request cost the database
 * store 1.7× the memory store's CPU on a cheap request (docs/benchmarks.md). Between two writes a
 * process does not see the others' hits, so the cluster may admit up to what its other processes
 * admitted in one interval beyond the budget (docs/decisions.md, "The global budget written behind").
 */
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schedule from "effect/Schedule"
import { Settings } from "../../kernel/settings.ts"
import {
  defaultClassLimits,
  memoryRateStore,
  RateLimiter,
  type RateStore,
  WINDOW_MS
} from "../../kernel/http/rate-limit.ts"
import { RateWindowsRepository } from "./rate-windows-repository.ts"

/** How often a process writes its global hits behind and learns the cluster's counts. */
export const FLUSH_EVERY = Duration.millis(250)

/** One address's global window as this process knows it. */
interface Kept {
  readonly windowStart: number
  /** The cluster's count at this process's last write (its own hits until then included). */
  known: number
  /** This process's hits since, not written yet. */
  pending: number
}

const secondsLeft = (windowStart: number, now: number) => Math.max(1, Math.ceil((windowStart + WINDOW_MS - now) / 1000))

export const databaseRateStore = Effect.gen(function* () {
  const windows = yield* RateWindowsRepository
  // Each process sweeps at most once a minute; a sweep by two at once deletes the same rows, harmlessly.
  let lastSweep = 0
  const sweep = (windowStart: number) =>
    Effect.suspend(() => {
      if (windowStart <= lastSweep) return Effect.void
      lastSweep = windowStart
      return windows.sweep({ before: new Date(windowStart).toISOString() })
    })
  const windowOf = (now: number) => now - (now % WINDOW_MS)

  /** Counted at once: the window's count with this hit answers whether it is over. */
  const countNow = (rateClass: string, address: string, limit: number, now: number) => {
    const windowStart = windowOf(now)
    return Effect.zipRight(
      sweep(windowStart),
      Effect.map(
        windows.add({ rateClass, address, windowStart: new Date(windowStart).toISOString(), hits: 1 }),
        ({ count }) => (count > limit ? secondsLeft(windowStart, now) : 0)
      )
    )
  }

  const kept = new Map<string, Kept>()
  /** Counted here, written behind: the cluster's count as last learned plus this process's hits since. */
  const countBehind = (address: string, limit: number, now: number) =>
    Effect.sync(() => {
      const windowStart = windowOf(now)
      let window = kept.get(address)
      if (window === undefined || window.windowStart !== windowStart) {
        window = { windowStart, known: 0, pending: 0 }
        kept.set(address, window)
      }
      window.pending += 1
      return window.known + window.pending > limit ? secondsLeft(windowStart, now) : 0
    })

  /** Writes every address's hits since the last write; learns the cluster's counts; forgets past windows. */
  const flush = Effect.gen(function* () {
    const current = windowOf(yield* Clock.currentTimeMillis)
    for (const [address, window] of kept) {
      if (window.pending === 0) {
        if (window.windowStart < current) kept.delete(address)
        continue
      }
      // Taken before the write: hits that come while it runs are the next write's.
      const hits = window.pending
      window.pending -= hits
      const windowStart = new Date(window.windowStart).toISOString()
      const { count } = yield* windows
        .add({ rateClass: "global", address, windowStart, hits })
        .pipe(
          Effect.onExit((exit) => (exit._tag === "Success" ? Effect.void : Effect.sync(() => (window.pending += hits))))
        )
      window.known = count
    }
    yield* sweep(current)
  })
  yield* Effect.forkScoped(
    Effect.repeat(
      Effect.catchAllCause(flush, (cause) => Effect.logWarning("Writing the global rate-limit counts failed", cause)),
      Schedule.spaced(FLUSH_EVERY)
    )
  )
  // A process stopping in order leaves its last hits counted for the others.
  yield* Effect.addFinalizer(() => Effect.ignore(flush))

  const store: RateStore = {
    hit: (rateClass, address, limit, now) =>
      rateClass === "global" ? countBehind(address, limit, now) : countNow(rateClass, address, limit, now)
  }
  return store
})

/** The node's rate limiter, counting where RATE_LIMIT_STORE (or its default) says. */
export const RateLimiterLive = Layer.scoped(
  RateLimiter,
  Effect.gen(function* () {
    const settings = yield* Settings
    const store = settings.rateLimitStore === "database" ? yield* databaseRateStore : memoryRateStore()
    return RateLimiter.make(
      { global: settings.rateLimitPerMinute, perClass: defaultClassLimits },
      settings.trustProxy,
      store
    )
  })
).pipe(Layer.provide(RateWindowsRepository.Default))
