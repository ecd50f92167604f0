/**
 * The node's one database, with numbered migrations: SQLite in WAL mode, one file under the data
 * directory, unless `DATABASE_URL` names a PostgreSQL server. Either way the same
 * `SqlClient.SqlClient` is provided, so repositories do not know which (docs/decisions.md
 * "PostgreSQL"). The kernel knows no tables; each owner (an actor kind, a host domain) exports its
 * migrations and the host hands the assembled record to `databaseLayer`.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as PgClient from "@effect/sql-pg/PgClient"
import * as SqliteClient from "@effect/sql-sqlite-node/SqliteClient"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type * as Redacted from "effect/Redacted"
import { mkdirSync } from "node:fs"
import { join } from "node:path"
import pg from "pg"
import { migrate, type Migrations } from "./migrator.ts"
import { Settings } from "./settings.ts"
import { retryOnConflict } from "./transaction-retry.ts"

export type { Migrations } from "./migrator.ts"

const pragmas = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql.onDialectOrElse({
    sqlite: () =>
      Effect.gen(function* () {
        yield* sql`PRAGMA foreign_keys = ON`
        yield* sql`PRAGMA synchronous = NORMAL`
        yield* sql`PRAGMA busy_timeout = 5000`
      }),
    orElse: () => Effect.void
  })
})

/**
 * Connections in the pool of each process. SQLite has one; PostgreSQL's default server allows 100,
 * so ten per process leaves room for several processes and an operator's psql, and is node-postgres's
 * own default. A request holds a connection only for its statements (or its transaction).
 */
export const POSTGRES_POOL_SIZE = 10

/** BIGINT (counts, epoch milliseconds) and NUMERIC (what SUM of integers gives) read as numbers, as SQLite's do. */
const numericOids = new Set<number>([pg.types.builtins.INT8, pg.types.builtins.NUMERIC])
const pgTypes = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    numericOids.has(oid) && format !== "binary"
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format ?? "text")) as typeof pg.types.getTypeParser
}

/** The PostgreSQL client at `url`; the URL stays Redacted, so its password reaches no log. */
export const postgresLayer = (url: Redacted.Redacted): Layer.Layer<SqlClient.SqlClient, unknown> =>
  PgClient.layer({
    url,
    maxConnections: POSTGRES_POOL_SIZE,
    idleTimeout: Duration.seconds(30),
    connectTimeout: Duration.seconds(10),
    applicationName: "node",
    types: pgTypes
  })

/**
 * SQLite's client, whose outermost transactions run again on a conflict with another process sharing the file
 * (transaction-retry.ts): a deferred BEGIN takes no lock until it writes, so a transaction that read before the other
 * process committed cannot write, and fails at once. One process alone never meets it.
 */
const sqliteLayer = (filename: string): Layer.Layer<SqlClient.SqlClient, unknown> =>
  Layer.map(SqliteClient.layer({ filename, disableWAL: filename === ":memory:" }), (context) =>
    Context.add(context, SqlClient.SqlClient, retryingTransactions(Context.get(context, SqlClient.SqlClient)))
  )

const retryingTransactions = (sql: SqlClient.SqlClient): SqlClient.SqlClient =>
  new Proxy(sql, {
    get: (target, key, receiver) =>
      key === "withTransaction"
        ? <A, E, R>(effect: Effect.Effect<A, E, R>) =>
            Effect.flatMap(Effect.serviceOption(SqlClient.TransactionConnection), (outer) =>
              // A nested one is a savepoint of the outer: the outer runs again, whole.
              Option.isSome(outer) ? target.withTransaction(effect) : retryOnConflict(target.withTransaction(effect))
            )
        : Reflect.get(target, key, receiver)
  })

/**
 * The client the settings name, migrated before anything uses it: PostgreSQL at `DATABASE_URL`,
 * else SQLite at `<dataDir>/node.db` (or `options.filename`, `:memory:` in unit tests).
 */
export const databaseLayer = (migrations: Migrations, options: { readonly filename?: string } = {}) => {
  const client: Layer.Layer<SqlClient.SqlClient, unknown, Settings> = Layer.unwrapEffect(
    Effect.gen(function* () {
      const settings = yield* Settings
      if (options.filename === undefined && Option.isSome(settings.databaseUrl)) {
        return postgresLayer(settings.databaseUrl.value)
      }
      let filename = options.filename
      if (filename === undefined) {
        mkdirSync(settings.dataDir, { recursive: true })
        filename = join(settings.dataDir, "node.db")
      }
      return sqliteLayer(filename)
    })
  )
  return Layer.provideMerge(migrationsLayer(migrations), client)
}

/** Runs the migrations not yet applied on the provided client (either dialect). */
export const migrationsLayer = (migrations: Migrations) =>
  Layer.effectDiscard(pragmas.pipe(Effect.zipRight(migrate(migrations))))
