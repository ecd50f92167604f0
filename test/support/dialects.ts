/**
 * One suite over both dialects: `onEachDialect(title, (database) => { ...tests })` runs the
 * tests once on SQLite (in memory) and once on a real PostgreSQL (a throwaway cluster, started
 * once for the file), each with a fresh, migrated database per `database()` call. Repository
 * suites use it to prove a row reads back the same whichever database stored it.
 */
import type * as SqlClient from "@effect/sql/SqlClient"
import * as SqliteClient from "@effect/sql-sqlite-node/SqliteClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import { afterAll, beforeAll, describe } from "vitest"
import { migrations } from "../../host/migrations.ts"
import { migrationsLayer, postgresLayer } from "../../kernel/database.ts"
import { startPostgres, type TestPostgres } from "./postgres.ts"

export const dialects = ["sqlite", "postgres"] as const
export type Dialect = (typeof dialects)[number]

/** A fresh database with every migration applied; build it once per test (a Layer is memoised by reference). */
export type FreshDatabase = () => Layer.Layer<SqlClient.SqlClient>

export const onEachDialect = (title: string, tests: (database: FreshDatabase, dialect: Dialect) => void) =>
  describe.each(dialects)(`${title} (%s)`, (dialect) => {
    let cluster: TestPostgres | undefined
    if (dialect === "postgres") {
      beforeAll(async () => {
        cluster = await startPostgres()
      }, 120_000)
      afterAll(() => cluster?.stop())
    }
    const client = (): Layer.Layer<SqlClient.SqlClient> =>
      dialect === "sqlite"
        ? Layer.orDie(SqliteClient.layer({ filename: ":memory:" }))
        : Layer.orDie(
            Layer.unwrapEffect(
              Effect.map(
                Effect.promise(() => cluster!.createDatabase()),
                (url) => postgresLayer(Redacted.make(url))
              )
            )
          )
    tests(() => Layer.orDie(Layer.provideMerge(migrationsLayer(migrations), client())), dialect)
  })
