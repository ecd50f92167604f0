/**
 * Per-address rate limits, in one-minute windows: a global budget for every /api request and a tighter one per class of route. Over budget is a 429 ApiError with
 * Retry-After. Time comes from the Clock, so tests can move it.
 */
import * as HttpMiddleware from "@effect/platform/HttpMiddleware"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import { clientAddress } from "./client-address.ts"

export type RateClass = "auth" | "waitlist" | "owner" | "llm" | "upload"

export interface RateLimits {
  readonly global: number
  readonly perClass: Record<RateClass, number>
}

export const defaultClassLimits: Record<RateClass, number> = { auth: 10, waitlist: 5, owner: 20, llm: 30, upload: 30 }

/** Which class a request falls in; routes of later issues add their lines here. */
const classify = (method: string, path: string): RateClass | null => {
  if (method !== "POST") return null
  switch (path) {
    case "/api/auth/login":
    case "/api/auth/register":
    case "/api/auth/verify":
    case "/api/auth/password":
    case "/api/auth/password/reset":
    case "/api/auth/password/reset/request":
      return "auth"
    case "/api/auth/waitlist":
      return "waitlist"
    case "/api/auth/codes":
    case "/api/auth/codes/send":
      return "owner"
    // Each starts a project run, which spends model budget.
    case "/api/studio/projects":
    case "/api/studio/omnibar":
      return "llm"
    default:
      return null
  }
}

const WINDOW_MS = 60_000

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

export const makeRateLimiter = (limits: RateLimits, trustProxy: boolean) => {
  const hit = makeRateCounter()

  return HttpMiddleware.make((app) =>
    Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      const path = request.url.split("?")[0]
      if (!path.startsWith("/api/")) return yield* app
      const now = yield* Clock.currentTimeMillis
      const address = clientAddress(request, trustProxy)
      const rateClass = classify(request.method, path)
      const wait = Math.max(
        hit(`global|${address}`, limits.global, now),
        rateClass === null ? 0 : hit(`${rateClass}|${address}`, limits.perClass[rateClass], now)
      )
      if (wait === 0) return yield* app
      return HttpServerResponse.unsafeJson(
        {
          error: "rate_limited",
          message: `Too many requests${rateClass === null ? "" : ` of this kind (${rateClass})`}. Try again in ${wait} s.`,
          details: { class: rateClass ?? "global", retryAfterSeconds: wait }
        },
        { status: 429, headers: { "retry-after": String(wait) } }
      )
    })
  )
}
