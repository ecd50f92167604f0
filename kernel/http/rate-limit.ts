/**
 * Per-address rate limits, in one-minute windows: a global budget for every /api request and a
 * tighter one per rate class, which each endpoint declares in the contract (the request policy
 * reads it from the route the router matched, so spelling a path differently changes nothing).
 * Over budget is a 429 ApiError with Retry-After. Time comes from the Clock, so tests can move it.
 *
 * The counts live in a store: this process's memory (one process, the default: no I/O per
 * request), or the database (./rate-store-database.ts), so that several processes of a cluster
 * share one budget: 10 login guesses a minute in total, not 10 per process. RATE_LIMIT_STORE
 * chooses (docs/operations.md).
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { RateClassName } from "../contract/endpoint-policy.ts"
import { RateLimited } from "../contract/errors.ts"
import { Settings } from "../settings.ts"
import { type AddressedRequest, clientAddress } from "./client-address.ts"

export interface RateLimits {
  readonly global: number
  readonly perClass: Record<RateClassName, number>
}

/**
 * `wire`: the public federation routes, which other nodes call and which each cost signature
 * checks; 120 a minute from one address is two a second, far above what a peer's courier sends.
 */
export const defaultClassLimits: Record<RateClassName, number> = {
  auth: 10,
  waitlist: 5,
  owner: 20,
  llm: 30,
  upload: 30,
  bridge: 120,
  wire: 120,
  // An assistant's tool calls, one POST each: 240 a minute is four a second, far above a conversation's pace.
  mcp: 240
}

export const WINDOW_MS = 60_000

/** Where hits are counted. */
export interface RateStore {
  /**
   * Counts one hit of `address` in `rateClass` (a rate class, or `global`); answers the seconds
   * to wait when this hit is over `limit`, else 0.
   */
  readonly hit: (rateClass: string, address: string, limit: number, now: number) => Effect.Effect<number>
}

/**
 * Counts hits per key in one-minute windows. Each key's window opens at its first hit, so a
 * burst cannot straddle a shared boundary and get twice its budget.
 */
export const makeRateCounter = () => {
  const windows = new Map<string, { start: number; count: number }>()
  let lastSweep = 0

  /** Counts one hit; answers the seconds to wait when the budget is spent, else 0. */
  const hit = (key: string, limit: number, now: number): number => {
    if (now - lastSweep >= WINDOW_MS) {
      for (const [k, window] of windows) if (now - window.start >= WINDOW_MS) windows.delete(k)
      lastSweep = now
    }
    let window = windows.get(key)
    if (window === undefined || now - window.start >= WINDOW_MS) {
      window = { start: now, count: 0 }
      windows.set(key, window)
    }
    window.count += 1
    return window.count > limit ? Math.max(1, Math.ceil((window.start + WINDOW_MS - now) / 1000)) : 0
  }
  return hit
}

/** Counts in this process's memory: one process's limits, at no cost per request. */
export const memoryRateStore = (): RateStore => {
  const hit = makeRateCounter()
  return { hit: (rateClass, address, limit, now) => Effect.sync(() => hit(`${rateClass}|${address}`, limit, now)) }
}

export interface RateLimiterShape {
  /**
   * Counts one request of its caller against the global budget (unless `global` is false: a
   * request already counted there) and against its class's; fails with RateLimited when either
   * is spent.
   */
  readonly charge: (
    request: AddressedRequest,
    rateClass: RateClassName | null,
    options?: { readonly global?: boolean }
  ) => Effect.Effect<void, RateLimited>
}

export class RateLimiter extends Context.Tag("host/RateLimiter")<RateLimiter, RateLimiterShape>() {
  static readonly make = (
    limits: RateLimits,
    trustProxyHops: number,
    store: RateStore = memoryRateStore()
  ): RateLimiterShape => ({
    charge: (request, rateClass, options = {}) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) => {
        const address = clientAddress(request, trustProxyHops)
        // Both budgets count the request, even when the first is already spent.
        const counted = Effect.zipWith(
          options.global === false ? Effect.succeed(0) : store.hit("global", address, limits.global, now),
          rateClass === null ? Effect.succeed(0) : store.hit(rateClass, address, limits.perClass[rateClass], now),
          Math.max
        )
        return Effect.flatMap(counted, (wait) =>
          wait === 0
            ? Effect.void
            : Effect.fail(
                new RateLimited({
                  message: `Too many requests${rateClass === null ? "" : ` of this kind (${rateClass})`}. Try again in ${wait} s.`,
                  details: { class: rateClass ?? "global", retryAfterSeconds: wait }
                })
              )
        )
      })
  })

  /** Counts in this process's memory, whatever the settings say: for a server without a database. */
  static readonly layer = Layer.effect(
    RateLimiter,
    Effect.map(Settings, (settings) =>
      RateLimiter.make({ global: settings.rateLimitPerMinute, perClass: defaultClassLimits }, settings.trustProxy)
    )
  )
}
