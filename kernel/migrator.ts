/**
 * Applies every migration the database has not applied yet, in number order.
 *
 * Why not `@effect/sql`'s Migrator: it runs only the migrations numbered above the highest one
 * applied. Our numbers are blocks per feature (docs/architecture.md), so a feature that adds
 * `0581_…` after a node already applied `1220_…` would never see it run there. This one keeps the
 * library's table (`effect_sql_migrations`, same columns), so a database it migrated before reads
 * the same, and its way of being safe with several processes starting at once: everything runs in
 * one transaction, on PostgreSQL behind an exclusive lock of that table, and the applied ids are
 * read again under the lock, so a second process finds nothing left to do.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import { spanNamed } from "./spans.ts"

/** A migration, keyed `NNNN_name`; the number orders it and is its identity. */
export type Migrations = Record<string, Effect.Effect<void, unknown, SqlClient.SqlClient>>

const table = "effect_sql_migrations"

/** A key's number and name, or a defect: a malformed key is the node's own fault. */
const parseKey = (key: string): { readonly id: number; readonly name: string } => {
  const match = /^(\d+)_(.+)$/.exec(key)
  if (match === null) throw new Error(`migration key ${JSON.stringify(key)} is not NNNN_name`)
  return { id: Number(match[1]), name: match[2] as string }
}

/** The migrations not in `applied`, in number order; two keys with one number are refused before anything runs. */
export const pending = (migrations: Migrations, applied: ReadonlySet<number>) => {
  const parsed = Object.entries(migrations).map(([key, effect]) => ({ ...parseKey(key), effect }))
  const byId = new Map<number, string>()
  for (const { id, name } of parsed) {
    const other = byId.get(id)
    if (other !== undefined) throw new Error(`two migrations share the number ${id}: ${other} and ${name}`)
    byId.set(id, name)
  }
  return parsed.filter((migration) => !applied.has(migration.id)).sort((a, b) => a.id - b.id)
}

/**
 * The migrations' advisory lock, in the two-key form: its key space does not overlap the one-key
 * form the cluster's shard locks use.
 */
const MIGRATION_LOCK = [7310, 1] as const

/** Runs what is missing; answers the keys it ran. */
export const migrate = (migrations: Migrations) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const run = Effect.gen(function* () {
      // One process migrates at a time, its table's creation included: PostgreSQL's CREATE TABLE IF
      // NOT EXISTS is not safe against itself (two runners starting together on a fresh database:
      // "duplicate key … pg_type_typname_nsp_index"). The lock is held until the transaction ends.
      yield* sql.onDialectOrElse({
        pg: () => sql`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK[0]}, ${MIGRATION_LOCK[1]})`,
        orElse: () => Effect.void
      })
      yield* sql.onDialectOrElse({
        pg: () => sql`CREATE TABLE IF NOT EXISTS ${sql(table)} (
        migration_id integer primary key,
        created_at timestamp with time zone not null default now(),
        name text not null
      )`,
        orElse: () => sql`CREATE TABLE IF NOT EXISTS ${sql(table)} (
        migration_id integer PRIMARY KEY NOT NULL,
        created_at datetime NOT NULL DEFAULT current_timestamp,
        name VARCHAR(255) NOT NULL
      )`
      })
      const rows = yield* sql`SELECT migration_id FROM ${sql(table)}`.withoutTransform
      const applied = new Set(rows.map((row) => Number(row.migration_id)))
      const toRun = pending(migrations, applied)
      for (const migration of toRun) {
        yield* Effect.mapError(
          migration.effect,
          (cause) => new Error(`Migration "${migration.id}_${migration.name}" failed`, { cause })
        )
        yield* sql`INSERT INTO ${sql(table)} (migration_id, name) VALUES (${migration.id}, ${migration.name})`
      }
      return toRun.map((migration) => `${migration.id}_${migration.name}`)
    })
    return yield* sql.withTransaction(run)
  }).pipe(Effect.orDie, spanNamed("database.migrate"))
