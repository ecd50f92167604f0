/**
 * Rate-limit counts in the database, for a node of several processes: every process counts into
 * the same fixed one-minute windows (one upsert per budget a request spends), so a budget holds
 * for the cluster as a whole. A fixed window lets a burst straddling a minute's boundary reach
 * twice the budget, once; the memory store's windows open at each key's first hit instead, which
 * would need a read before every write here.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { Settings } from "../../kernel/settings.ts"
import {
  defaultClassLimits,
  memoryRateStore,
  RateLimiter,
  type RateStore,
  WINDOW_MS
} from "../../kernel/http/rate-limit.ts"
import { RateWindowsRepository } from "./rate-windows-repository.ts"

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

  const store: RateStore = {
    hit: (rateClass, address, limit, now) => {
      const windowStart = now - (now % WINDOW_MS)
      return Effect.zipRight(
        sweep(windowStart),
        Effect.map(
          windows.hit({ rateClass, address, windowStart: new Date(windowStart).toISOString() }),
          ({ count }) => (count > limit ? Math.max(1, Math.ceil((windowStart + WINDOW_MS - now) / 1000)) : 0)
        )
      )
    }
  }
  return store
})

/** The node's rate limiter, counting where RATE_LIMIT_STORE (or its default) says. */
export const RateLimiterLive = Layer.effect(
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
