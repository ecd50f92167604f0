/**
 * The ledger of model calls: every call made is recorded with its tokens and cost, and the spend
 * ceilings and the usage route read their sums from it. Days are UTC calendar days read from
 * Effect's Clock, so a day boundary can be crossed in a test with TestClock.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import { dieOnSqlError } from "../../kernel/database.ts"
import type { LlmCall, LlmUsage } from "./contract/records.ts"

const dayMs = 24 * 60 * 60 * 1000

/** The UTC day that holds `ms`, as ISO bounds [start, end) comparable with `created_at`. */
export const utcDayOf = (ms: number) => {
  const start = Math.floor(ms / dayMs) * dayMs
  return { start: new Date(start).toISOString(), end: new Date(start + dayMs).toISOString() }
}

/** Whose calls a usage summary covers: the whole node's (the owner), or one being's. */
export type UsageScope = { readonly kind: "node" } | { readonly kind: "being"; readonly beingId: string }

const recentCount = 20

interface CallRow {
  readonly id: string
  readonly beingId: string | null
  readonly projectId: string | null
  readonly model: string
  readonly tier: LlmCall["tier"]
  readonly provider: LlmCall["provider"]
  readonly baseUrl: string
  readonly fallback: number
  readonly promptTokens: number
  readonly completionTokens: number
  readonly usageReported: number
  readonly costUsd: number
  readonly pricing: LlmCall["pricing"]
  readonly purpose: string
  readonly durationMs: number
  readonly createdAt: string
}

const toCall = (row: CallRow): LlmCall => ({
  ...row,
  fallback: row.fallback === 1,
  usageReported: row.usageReported === 1
})

export class LlmLedger extends Effect.Service<LlmLedger>()("models/LlmLedger", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const record = (call: LlmCall) =>
      sql`INSERT INTO llm_calls ${sql.insert({
        id: call.id,
        being_id: call.beingId,
        project_id: call.projectId,
        tier: call.tier,
        model: call.model,
        provider: call.provider,
        base_url: call.baseUrl,
        fallback: call.fallback ? 1 : 0,
        prompt_tokens: call.promptTokens,
        completion_tokens: call.completionTokens,
        usage_reported: call.usageReported ? 1 : 0,
        cost_usd: call.costUsd,
        pricing: call.pricing,
        purpose: call.purpose,
        duration_ms: call.durationMs,
        created_at: call.createdAt
      })}`.pipe(Effect.asVoid, dieOnSqlError, Effect.withSpan("LlmLedger.record"))

    const sumOf = (rows: ReadonlyArray<{ readonly usd: number }>) => rows[0]?.usd ?? 0

    /** Spent on the whole node during the UTC day that holds now. */
    const spentToday = Effect.flatMap(Clock.currentTimeMillis, (now) => {
      const day = utcDayOf(now)
      return sql<{ usd: number }>`SELECT COALESCE(SUM(cost_usd), 0) AS usd FROM llm_calls
        WHERE created_at >= ${day.start} AND created_at < ${day.end}`.pipe(Effect.map(sumOf), dieOnSqlError)
    })

    const spentOnProject = (projectId: string) =>
      sql<{ usd: number }>`SELECT COALESCE(SUM(cost_usd), 0) AS usd FROM llm_calls WHERE project_id = ${projectId}`.pipe(
        Effect.map(sumOf),
        dieOnSqlError
      )

    const usage = (scope: UsageScope): Effect.Effect<LlmUsage> =>
      Effect.gen(function* () {
        const day = utcDayOf(yield* Clock.currentTimeMillis)
        const whose = scope.kind === "node" ? sql`1 = 1` : sql`being_id = ${scope.beingId}`
        const [totals] = yield* sql<{ totalUsd: number; calls: number; todayUsd: number }>`SELECT
            COALESCE(SUM(cost_usd), 0) AS totalUsd,
            COUNT(*) AS calls,
            COALESCE(SUM(CASE WHEN created_at >= ${day.start} AND created_at < ${day.end} THEN cost_usd END), 0) AS todayUsd
          FROM llm_calls WHERE ${whose}`
        const byModel = yield* sql<{ model: string; calls: number; usd: number }>`SELECT model, COUNT(*) AS calls,
            COALESCE(SUM(cost_usd), 0) AS usd
          FROM llm_calls WHERE ${whose} GROUP BY model ORDER BY usd DESC, model`
        const recent = yield* sql<CallRow>`SELECT id, being_id AS beingId, project_id AS projectId, model, tier, provider,
            base_url AS baseUrl, fallback, prompt_tokens AS promptTokens, completion_tokens AS completionTokens,
            usage_reported AS usageReported, cost_usd AS costUsd, pricing, purpose, duration_ms AS durationMs,
            created_at AS createdAt
          FROM llm_calls WHERE ${whose} ORDER BY created_at DESC, rowid DESC LIMIT ${recentCount}`
        return {
          todayUsd: totals.todayUsd,
          totalUsd: totals.totalUsd,
          calls: totals.calls,
          byModel,
          recent: recent.map(toCall)
        }
      }).pipe(dieOnSqlError, Effect.withSpan("LlmLedger.usage"))

    return { record, spentToday, spentOnProject, usage } as const
  })
}) {}
