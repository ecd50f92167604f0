/**
 * The ledger of model calls: every call made is recorded with its tokens and cost, and the spend
 * ceilings and the usage route read their sums from it. Days are UTC calendar days read from
 * Effect's Clock, so a day boundary can be crossed in a test with TestClock.
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import type { LlmCall, LlmUsage } from "./contract/records.ts"
import { LlmCallsRepository } from "./llm-calls-repository.ts"

const dayMs = 24 * 60 * 60 * 1000

/** The UTC day that holds `ms`, as ISO bounds [start, end) comparable with `created_at`. */
export const utcDayOf = (ms: number) => {
  const start = Math.floor(ms / dayMs) * dayMs
  return { start: new Date(start).toISOString(), end: new Date(start + dayMs).toISOString() }
}

/** Whose calls a usage summary covers: the whole node's (the owner), or one being's. */
export type UsageScope = { readonly kind: "node" } | { readonly kind: "being"; readonly beingId: string }

const recentCount = 20

export class LlmLedger extends Effect.Service<LlmLedger>()("models/LlmLedger", {
  dependencies: [LlmCallsRepository.Default],
  effect: Effect.gen(function* () {
    const calls = yield* LlmCallsRepository

    const record = (call: LlmCall) => calls.insert(call)

    /** Spent on the whole node during the UTC day that holds now. */
    const spentToday = Effect.flatMap(Clock.currentTimeMillis, (now) => calls.spentBetween(utcDayOf(now)))

    const spentOnProject = calls.spentOnProject

    const usage = (scope: UsageScope): Effect.Effect<LlmUsage> =>
      Effect.gen(function* () {
        const whose = { beingId: scope.kind === "node" ? null : scope.beingId }
        const day = utcDayOf(yield* Clock.currentTimeMillis)
        const [totals, byModel, recent] = yield* Effect.all([
          calls.totals({ ...whose, day }),
          calls.byModel(whose),
          calls.recent({ ...whose, limit: recentCount })
        ])
        return { ...totals, byModel, recent }
      }).pipe(Effect.withSpan("models.usage"))

    return { record, spentToday, spentOnProject, usage } as const
  })
}) {}
