/**
 * The ledger of model calls: every call made is recorded with its tokens and cost, and the spend
 * ceilings and the usage route read their sums from it. Days are UTC calendar days read from
 * Effect's Clock, so a day boundary can be crossed in a test with TestClock.
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import { NodeMetrics, type NodeMetricsShape } from "../../kernel/metrics.ts"
import type { LlmCall, LlmUsage } from "./contract/records.ts"
import { LlmCallsRepository } from "./llm-calls-repository.ts"
import { spanNamed } from "../../kernel/spans.ts"

const dayMs = 24 * 60 * 60 * 1000

/** The UTC day that holds `ms`, as ISO bounds [start, end) comparable with `created_at`. */
export const utcDayOf = (ms: number) => {
  const start = Math.floor(ms / dayMs) * dayMs
  return { start: new Date(start).toISOString(), end: new Date(start + dayMs).toISOString() }
}

/** The UTC month that holds `ms`, as ISO bounds [start, end). */
export const utcMonthOf = (ms: number) => {
  const day = new Date(ms)
  const start = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), 1)
  const end = Date.UTC(day.getUTCFullYear(), day.getUTCMonth() + 1, 1)
  return { start: new Date(start).toISOString(), end: new Date(end).toISOString() }
}

/** Whose calls a usage summary covers: the whole node's (the owner), or one being's. */
export type UsageScope = { readonly kind: "node" } | { readonly kind: "being"; readonly beingId: string }

const recentCount = 20

/** Each recorded call in /api/metrics: calls, tokens, spend and time by tier. */
const callMetrics = (metrics: NodeMetricsShape) => {
  const callsMade = metrics.counter({
    name: "pos_model_calls_total",
    help: "Model calls recorded in the ledger, by tier and by the provider that served (local, remote).",
    labelNames: ["tier", "provider"]
  })
  const tokens = metrics.counter({
    name: "pos_model_tokens_total",
    help: "Tokens of recorded model calls, by tier and direction (prompt, completion).",
    labelNames: ["tier", "direction"]
  })
  const spend = metrics.counter({
    name: "pos_model_spend_usd_total",
    help: "What recorded model calls cost, in US dollars, by tier.",
    labelNames: ["tier"]
  })
  const seconds = metrics.histogram({
    name: "pos_model_call_duration_seconds",
    help: "How long recorded model calls took, by tier.",
    labelNames: ["tier"],
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120]
  })
  return (call: LlmCall) =>
    Effect.sync(() => {
      callsMade.inc({ tier: call.tier, provider: call.provider })
      tokens.inc({ tier: call.tier, direction: "prompt" }, call.promptTokens)
      tokens.inc({ tier: call.tier, direction: "completion" }, call.completionTokens)
      spend.inc({ tier: call.tier }, call.costUsd)
      seconds.observe({ tier: call.tier }, call.durationMs / 1000)
    })
}

export class LlmLedger extends Effect.Service<LlmLedger>()("models/LlmLedger", {
  dependencies: [LlmCallsRepository.Default],
  effect: Effect.gen(function* () {
    const calls = yield* LlmCallsRepository
    const counted = callMetrics(yield* NodeMetrics)

    const record = (call: LlmCall) => Effect.tap(calls.insert(call), () => counted(call))

    /** Spent on the whole node during the UTC day that holds now. */
    const spentToday = Effect.flatMap(Clock.currentTimeMillis, (now) => calls.spentBetween(utcDayOf(now)))

    /** What the spend ceilings weigh a call against, read together: the project's spend (null: none) and today's. */
    const spentForCeilings = (projectId: string | null) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) => calls.spentForCeilings({ projectId, day: utcDayOf(now) }))

    /** Each tier's spend today and this month (UTC), by tier. */
    const spentByTier = Effect.flatMap(Clock.currentTimeMillis, (now) =>
      Effect.all({ today: calls.spentByTier(utcDayOf(now)), month: calls.spentByTier(utcMonthOf(now)) })
    )

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
      }).pipe(spanNamed("models.usage"))

    return { record, spentToday, spentForCeilings, spentByTier, usage } as const
  })
}) {}
