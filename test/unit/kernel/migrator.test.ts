import * as Migrator from "@effect/sql/Migrator"
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqliteClient from "@effect/sql-sqlite-node/SqliteClient"
import { describe, expect, it } from "@effect/vitest"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import { migrate, type Migrations } from "../../../kernel/migrator.ts"

const create = (table: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql`CREATE TABLE ${sql(table)} (id TEXT PRIMARY KEY)`.pipe(Effect.asVoid)
  )

const tables = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.map(
    sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 't_%' ORDER BY name`,
    (rows) => rows.map((row) => row.name)
  )
)

const memory = SqliteClient.layer({ filename: ":memory:" })

describe("the migrator", () => {
  it.effect("runs a migration numbered below one already applied (a feature's block, added later)", () =>
    Effect.gen(function* () {
      const first: Migrations = { "0001_a": create("t_a"), "1220_c": create("t_c") }
      expect(yield* migrate(first)).toEqual(["1_a", "1220_c"])
      expect(yield* migrate({ ...first, "0581_b": create("t_b") })).toEqual(["581_b"])
      expect(yield* tables).toEqual(["t_a", "t_b", "t_c"])
      expect(yield* migrate({ ...first, "0581_b": create("t_b") })).toEqual([])
    }).pipe(Effect.provide(memory))
  )

  it.effect("reads the table the library's migrator wrote, and runs only what it did not", () =>
    Effect.gen(function* () {
      yield* Migrator.make({})({ loader: Migrator.fromRecord({ "0001_a": create("t_a"), "0300_c": create("t_c") }) })
      expect(yield* migrate({ "0001_a": create("t_a"), "0200_b": create("t_b"), "0300_c": create("t_c") })).toEqual([
        "200_b"
      ])
      expect(yield* tables).toEqual(["t_a", "t_b", "t_c"])
    }).pipe(Effect.provide(memory))
  )

  it.effect("refuses two migrations with one number, and rolls back a set with a failing one", () =>
    Effect.gen(function* () {
      const twice = yield* Effect.exit(migrate({ "0001_a": create("t_a"), "0001_b": create("t_b") }))
      expect(Exit.isFailure(twice) && Cause.pretty(twice.cause)).toMatch(/share the number 1: a and b/)
      const failing = yield* Effect.exit(migrate({ "0001_a": create("t_a"), "0002_bad": create("t_a") }))
      expect(Exit.isFailure(failing)).toBe(true)
      expect(yield* tables).toEqual([])
      expect(yield* migrate({ "0001_a": create("t_a") })).toEqual(["1_a"])
    }).pipe(Effect.provide(memory))
  )
})
