/**
 * Per-address rate limits, in fixed one-minute windows: a global budget for every /api
 * request and a tighter one per class of route. Over budget is a 429 ApiError with
 * Retry-After. Time comes from the Clock, so tests can move it.
 */
import * as HttpMiddleware from "@effect/platform/HttpMiddleware"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import { clientAddress } from "./client-address.ts"
import { securityHeaders } from "./security-headers.ts"

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
    case "/api/auth/password/reset":
    case "/api/auth/password/reset/request":
      return "auth"
    case "/api/auth/waitlist":
      return "waitlist"
    case "/api/auth/codes":
    case "/api/auth/codes/send":
      return "owner"
    default:
      return null
  }
}

const WINDOW_MS = 60_000

export const makeRateLimiter = (limits: RateLimits, trustProxy: boolean) => {
  let windowStart = 0
  let counts = new Map<string, number>()

  /** Counts one hit; answers the seconds to wait when the budget is spent, else 0. */
  const hit = (key: string, limit: number, now: number): number => {
    if (now - windowStart >= WINDOW_MS) {
      windowStart = now - (now % WINDOW_MS)
      counts = new Map()
    }
    const count = (counts.get(key) ?? 0) + 1
    counts.set(key, count)
    return count > limit ? Math.max(1, Math.ceil((windowStart + WINDOW_MS - now) / 1000)) : 0
  }

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
        // Answered before the app runs, so this response carries the security headers itself.
        { status: 429, headers: { ...securityHeaders, "retry-after": String(wait) } }
      )
    })
  )
}
