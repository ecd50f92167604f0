/**
 * Every migration of the node runs on a fresh PostgreSQL 15 database and on SQLite, and both make
 * the same tables with the same columns, but for the word index and the vectors, which each
 * dialect keeps its own way (docs/decisions.md "PostgreSQL").
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqliteClient from "@effect/sql-sqlite-node/SqliteClient"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import { migrations } from "../../../host/migrations.ts"
import { migrationsLayer, postgresLayer } from "../../../kernel/database.ts"
import { startPostgres, type TestPostgres } from "../../support/postgres.ts"

let cluster: TestPostgres
beforeAll(async () => {
  cluster = await startPostgres()
}, 120_000)
afterAll(() => cluster?.stop())

const Column = Schema.Struct({ table_name: Schema.String, column_name: Schema.String, data_type: Schema.String })
type Column = typeof Column.Type

const sqliteColumns = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql`SELECT m.name AS table_name, c.name AS column_name, c.type AS data_type
    FROM sqlite_master m JOIN pragma_table_info(m.name) c
    WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%'`
  return Schema.decodeUnknownSync(Schema.Array(Column))(rows)
})

const postgresColumns = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const rows =
    yield* sql`SELECT table_name, column_name, data_type FROM information_schema.columns WHERE table_schema = 'public'`
  return Schema.decodeUnknownSync(Schema.Array(Column))(rows)
})

/**
 * What only one dialect has: SQLite's FTS5 table (and its shadow tables), PostgreSQL's tsvector column and vector rows.
 */
const ownToSqlite = (column: Column) => column.table_name.startsWith("twin_memories_fts")
const ownToPostgres = (column: Column) =>
  column.table_name === "twin_memory_vectors" ||
  (column.table_name === "twin_memories" && column.column_name === "search")

const shape = (columns: ReadonlyArray<Column>) =>
  [...new Set(columns.map((column) => `${column.table_name}.${column.column_name}`))].sort()

const onSqlite = <A, E>(effect: Effect.Effect<A, E, SqlClient.SqlClient>) =>
  Effect.provide(effect, Layer.provideMerge(migrationsLayer(migrations), SqliteClient.layer({ filename: ":memory:" })))

const onPostgres = <A, E>(url: string, effect: Effect.Effect<A, E, SqlClient.SqlClient>) =>
  Effect.provide(effect, Layer.provideMerge(migrationsLayer(migrations), postgresLayer(Redacted.make(url))))

describe("the migrations on both dialects", () => {
  it.effect(
    "make the same tables and columns on PostgreSQL as on SQLite",
    () =>
      Effect.gen(function* () {
        const url = yield* Effect.promise(() => cluster.createDatabase())
        const sqlite = yield* onSqlite(sqliteColumns)
        const postgres = yield* onPostgres(url, postgresColumns)
        expect(shape(sqlite).length).toBeGreaterThan(200)
        expect(shape(postgres.filter((column) => !ownToPostgres(column)))).toEqual(
          shape(sqlite.filter((column) => !ownToSqlite(column)))
        )
        expect(shape(postgres.filter(ownToPostgres))).toEqual([
          "twin_memories.search",
          ...["being_id", "dims", "embedding", "kind", "model", "seq"].map((name) => `twin_memory_vectors.${name}`)
        ])

        // Wide numbers are BIGINT and fractions doubles there: no 4-byte REAL but the vectors'.
        const typeOf = (table: string, column: string) =>
          postgres.find((row) => row.table_name === table && row.column_name === column)?.data_type
        expect(typeOf("market_wallets", "balance")).toBe("bigint")
        expect(typeOf("project_traces", "seq")).toBe("bigint")
        expect(typeOf("llm_calls", "cost_usd")).toBe("double precision")
        expect(postgres.filter((row) => row.data_type === "real").map((row) => row.table_name)).toEqual([])
        // The migrations ran once each; running them again on the same database changes nothing.
        const again = yield* onPostgres(url, postgresColumns)
        expect(shape(again)).toEqual(shape(postgres))
      }),
    120_000
  )

  it.effect(
    "reads PostgreSQL's BIGINT and NUMERIC as numbers, and emails without case, as SQLite does",
    () =>
      Effect.gen(function* () {
        const url = yield* Effect.promise(() => cluster.createDatabase())
        const probe = Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          yield* sql`INSERT INTO waitlist (email, name, why, created_at) VALUES ('Ada@Example.org', 'Ada', 'why', '2026-01-01T00:00:00.000Z')`
          const found =
            yield* sql`SELECT COUNT(*) AS n, SUM(LENGTH(name)) AS total FROM waitlist WHERE email = 'ada@example.ORG'`
          const taken = yield* Effect.either(
            sql`INSERT INTO waitlist (email, name, why, created_at) VALUES ('ADA@example.org', 'Ada', 'why', '2026-01-01T00:00:00.000Z')`
          )
          return { found: found[0], taken: taken._tag }
        })
        const expected = { found: { n: 1, total: 3 }, taken: "Left" }
        expect(yield* onSqlite(probe)).toEqual(expected)
        expect(yield* onPostgres(url, probe)).toEqual(expected)
      }),
    120_000
  )
})
