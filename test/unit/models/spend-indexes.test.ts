/**
 * The spend ceilings' sums, read before every model call (the project's calls and the day's), read the ledger's
 * indexes alone on SQLite: the statement the repository sends, as SQLite plans it, searches a covering index for each
 * sum and reads no row of `llm_calls` (docs/benchmarks.md, "Orchestration per studio task": the day's sum grows with
 * every call of the day).
 */
import { describe, expect, it } from "@effect/vitest"
import * as SqlClient from "@effect/sql/SqlClient"
import * as Statement from "@effect/sql/Statement"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { LlmCallsRepository } from "../../../extensions/models/llm-calls-repository.ts"
import { modelMigrations } from "../../../extensions/models/migrations.ts"
import { databaseLayer } from "../../../kernel/database.ts"
import { Settings } from "../../../kernel/settings.ts"

const database = databaseLayer(modelMigrations, { filename: ":memory:" }).pipe(Layer.provide(Settings.layerWith({})))

describe("the spend ceilings' sums", () => {
  it.effect("search covering indexes only, the project's and the day's", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const calls = yield* LlmCallsRepository
      const sent: Array<readonly [string, ReadonlyArray<unknown>]> = []
      yield* calls
        .spentForCeilings({
          projectId: "p1",
          day: { start: "2026-11-30T00:00:00.000Z", end: "2026-12-01T00:00:00.000Z" }
        })
        .pipe(
          Statement.withTransformer((statement) =>
            Effect.sync(() => {
              sent.push(statement.compile())
              return statement
            })
          )
        )
      expect(sent).toHaveLength(1)
      const [text, params] = sent[0]!
      const plan = yield* sql.unsafe<{ detail: string }>(`EXPLAIN QUERY PLAN ${text}`, params)
      const searches = plan.map((step) => step.detail).filter((detail) => detail.includes("llm_calls"))
      expect(searches).toHaveLength(2)
      for (const search of searches) expect(search).toMatch(/^SEARCH llm_calls USING COVERING INDEX /)
    }).pipe(Effect.provide(LlmCallsRepository.Default.pipe(Layer.provideMerge(database))))
  )
})
