/**
 * Whether the database answers, and how fast: the one statement of the health route. A failure
 * here is the answer itself (`database.ok: false`), not a defect, so the route still reports.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import { performance } from "node:perf_hooks"
import { spanNamed } from "../../kernel/spans.ts"

export class DatabaseProbe extends Effect.Service<DatabaseProbe>()("health/DatabaseProbe", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const probe = Effect.gen(function* () {
      const before = performance.now()
      const ok = yield* sql`SELECT 1`.pipe(
        Effect.as(true),
        Effect.catchAll(() => Effect.succeed(false))
      )
      return { ok, latencyMs: Math.round((performance.now() - before) * 1000) / 1000 }
    }).pipe(spanNamed("health.probeDatabase"))

    return { probe } as const
  })
}) {}
