/**
 * The `seq` column (kernel/sequence-column.ts) numbers rows in the order written, on both
 * dialects: rows already in the table when it is added, and rows written after, even within one
 * millisecond and whatever their (random) ids.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import { expect, it } from "vitest"
import { addSequenceColumn } from "../../../kernel/sequence-column.ts"
import { onEachDialect } from "../../support/dialects.ts"

onEachDialect("a seq column", (database) => {
  it("orders old and new rows of one instant as they were written", async () => {
    const ids = await Effect.runPromise(
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        yield* sql`CREATE TABLE seq_probe (id TEXT PRIMARY KEY, created_at TEXT NOT NULL)`
        const write = (id: string) =>
          sql`INSERT INTO seq_probe (id, created_at) VALUES (${id}, '2026-01-01T00:00:00.000Z')`
        for (const id of ["m", "c", "x"]) yield* write(id)
        yield* addSequenceColumn("seq_probe")
        for (const id of ["a", "z", "b"]) yield* write(id)
        const rows = yield* sql<{ id: string }>`SELECT id FROM seq_probe ORDER BY created_at DESC, seq DESC`
        return rows.map((row) => row.id)
      }).pipe(Effect.provide(database()))
    )
    expect(ids).toEqual(["b", "z", "a", "x", "c", "m"])
  }, 60_000)
})
