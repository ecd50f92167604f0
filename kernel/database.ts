/**
 * The node's one database: SQLite in WAL mode, one file under the data directory, with
 * numbered migrations. The kernel knows no tables; each owner (an actor kind, a host domain)
 * exports its migrations and the host hands the assembled record to `Database.layer`.
 */
import * as Migrator from "@effect/sql/Migrator"
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqliteClient from "@effect/sql-sqlite-node/SqliteClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { mkdirSync } from "node:fs"
import { join } from "node:path"
import { Settings } from "./settings.ts"

/** A migration, keyed `NNNN_name` so the order is the number. */
export type Migrations = Record<string, Effect.Effect<void, unknown, SqlClient.SqlClient>>

const runMigrations = Migrator.make({})

const pragmas = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`PRAGMA foreign_keys = ON`
  yield* sql`PRAGMA synchronous = NORMAL`
  yield* sql`PRAGMA busy_timeout = 5000`
})

/** The SQLite client at `<dataDir>/node.db` (or `:memory:`), migrated before anything uses it. */
export const databaseLayer = (migrations: Migrations, options: { readonly filename?: string } = {}) => {
  const client = Layer.unwrapEffect(
    Effect.gen(function* () {
      const settings = yield* Settings
      let filename = options.filename
      if (filename === undefined) {
        mkdirSync(settings.dataDir, { recursive: true })
        filename = join(settings.dataDir, "node.db")
      }
      return SqliteClient.layer({ filename, disableWAL: filename === ":memory:" })
    })
  )
  const migrate = Layer.effectDiscard(
    pragmas.pipe(Effect.zipRight(runMigrations({ loader: Migrator.fromRecord(migrations) })))
  )
  return Layer.provideMerge(migrate, client)
}
