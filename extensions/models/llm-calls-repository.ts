/**
 * The `llm_calls` table: one row per model call made, what it cost and what it was for. Sums are
 * cast to plain numbers so PostgreSQL's bigint counts read like SQLite's.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { BooleanColumn, operation } from "../../kernel/repository.ts"
import { LlmCall, LlmUsage } from "./contract/records.ts"

const CallRow = Schema.Struct({ ...LlmCall.fields, fallback: BooleanColumn, usageReported: BooleanColumn })

/** Whose calls: the whole node's (null) or one being's. */
const Whose = Schema.Struct({ beingId: Schema.NullOr(Schema.String) })

/** An ISO interval [start, end), comparable with `created_at`. */
const Interval = Schema.Struct({ start: Schema.String, end: Schema.String })

const Usd = Schema.Struct({ usd: Schema.Number })

/** An aggregate answers one row; none (which cannot happen) reads as nothing spent. */
const spent = Option.match({ onNone: () => 0, onSome: ({ usd }: typeof Usd.Type) => usd })
const Totals = LlmUsage.pipe(Schema.pick("totalUsd", "calls", "todayUsd"))
const noTotals: typeof Totals.Type = { totalUsd: 0, calls: 0, todayUsd: 0 }

export class LlmCallsRepository extends Effect.Service<LlmCallsRepository>()("models/LlmCallsRepository", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const whose = (scope: typeof Whose.Encoded) =>
      scope.beingId === null ? sql`1 = 1` : sql`being_id = ${scope.beingId}`

    const insert = operation(
      "models.recordCall",
      SqlSchema.void({
        Request: CallRow,
        execute: (call) =>
          sql`INSERT INTO llm_calls ${sql.insert({
            id: call.id,
            being_id: call.beingId,
            project_id: call.projectId,
            tier: call.tier,
            model: call.model,
            provider: call.provider,
            base_url: call.baseUrl,
            fallback: call.fallback,
            prompt_tokens: call.promptTokens,
            completion_tokens: call.completionTokens,
            usage_reported: call.usageReported,
            cost_usd: call.costUsd,
            unit: call.unit,
            quantity: call.quantity,
            pricing: call.pricing,
            purpose: call.purpose,
            duration_ms: call.durationMs,
            created_at: call.createdAt
          })}`
      })
    )

    const spentBetween = SqlSchema.findOne({
      Request: Interval,
      Result: Usd,
      execute: (interval) => sql`SELECT COALESCE(SUM(cost_usd), 0) AS usd FROM llm_calls
        WHERE created_at >= ${interval.start} AND created_at < ${interval.end}`
    })

    /** Each tier's spend in the interval (tiers with no call are absent). */
    const spentByTier = SqlSchema.findAll({
      Request: Interval,
      Result: Schema.Struct({ tier: Schema.String, usd: Schema.Number }),
      execute: (interval) => sql`SELECT tier, COALESCE(SUM(cost_usd), 0) AS usd FROM llm_calls
        WHERE created_at >= ${interval.start} AND created_at < ${interval.end} GROUP BY tier`
    })

    /** What the spend ceilings read before a call, in one statement: the project's spend (none: 0) and the day's. */
    const spentForCeilings = SqlSchema.findOne({
      Request: Schema.Struct({ projectId: Schema.NullOr(Schema.String), day: Interval }),
      Result: Schema.Struct({ project: Schema.Number, day: Schema.Number }),
      execute: ({ day, projectId }) => sql`SELECT
          COALESCE((SELECT SUM(cost_usd) FROM llm_calls WHERE project_id = ${projectId}), 0) AS project,
          COALESCE((SELECT SUM(cost_usd) FROM llm_calls WHERE created_at >= ${day.start} AND created_at < ${day.end}), 0) AS day`
    })

    /** Everything spent, the number of calls, and what was spent in the interval (a day). */
    const totals = SqlSchema.findOne({
      Request: Schema.Struct({ ...Whose.fields, day: Interval }),
      Result: Totals,
      execute: (request) => sql`SELECT COALESCE(SUM(cost_usd), 0) AS "totalUsd", CAST(COUNT(*) AS INTEGER) AS calls,
          COALESCE(SUM(CASE WHEN created_at >= ${request.day.start} AND created_at < ${request.day.end} THEN cost_usd END), 0) AS "todayUsd"
        FROM llm_calls WHERE ${whose(request)}`
    })

    const byModel = operation(
      "models.usageByModel",
      SqlSchema.findAll({
        Request: Whose,
        Result: LlmUsage.fields.byModel.value,
        execute: (request) => sql`SELECT model, CAST(COUNT(*) AS INTEGER) AS calls, COALESCE(SUM(cost_usd), 0) AS usd
        FROM llm_calls WHERE ${whose(request)} GROUP BY model ORDER BY usd DESC, model`
      })
    )

    /** The latest calls, newest first; `seq` orders calls that began in the same millisecond. */
    const recent = operation(
      "models.recentCalls",
      SqlSchema.findAll({
        Request: Schema.Struct({ ...Whose.fields, limit: Schema.Int }),
        Result: CallRow,
        execute: (request) => sql`SELECT id, being_id AS "beingId", project_id AS "projectId", model, tier, provider,
          base_url AS "baseUrl", fallback, prompt_tokens AS "promptTokens", completion_tokens AS "completionTokens",
          usage_reported AS "usageReported", cost_usd AS "costUsd", unit, quantity, pricing, purpose, duration_ms AS "durationMs",
          created_at AS "createdAt"
        FROM llm_calls WHERE ${whose(request)} ORDER BY created_at DESC, seq DESC LIMIT ${request.limit}`
      })
    )

    return {
      insert,
      spentBetween: operation("models.spentBetween", (interval: typeof Interval.Type) =>
        Effect.map(spentBetween(interval), spent)
      ),
      spentByTier: operation("models.spentByTier", (interval: typeof Interval.Type) =>
        Effect.map(spentByTier(interval), (rows) => new Map(rows.map((row) => [row.tier, row.usd])))
      ),
      spentForCeilings: operation("models.spentForCeilings", (request: Parameters<typeof spentForCeilings>[0]) =>
        Effect.map(
          spentForCeilings(request),
          Option.getOrElse(() => ({ project: 0, day: 0 }))
        )
      ),
      totals: operation("models.usageTotals", (request: Parameters<typeof totals>[0]) =>
        Effect.map(
          totals(request),
          Option.getOrElse(() => noTotals)
        )
      ),
      byModel,
      recent
    } as const
  })
}) {}
