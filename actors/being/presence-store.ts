/**
 * The `being_sockets` table: one row per open socket. A being is online while it has a row.
 * Kept in the database rather than in the entity's memory so passivating an idle being (its
 * sockets open, no message for minutes) loses nothing.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"

export const makePresenceStore = Effect.map(SqlClient.SqlClient, (sql) => {
  const socketsOf = (beingId: string) =>
    sql<{ n: number }>`SELECT count(*) AS n FROM being_sockets WHERE being_id = ${beingId}`.pipe(Effect.map((rows) => rows[0].n))

  /** Records an open socket; true when it is the being's first (the being just came online). */
  const open = (beingId: string, connectionId: string, now: string) =>
    Effect.gen(function* () {
      const before = yield* socketsOf(beingId)
      const added = yield* sql`INSERT INTO being_sockets (connection_id, being_id, opened_at)
        VALUES (${connectionId}, ${beingId}, ${now}) ON CONFLICT DO NOTHING RETURNING connection_id`
      return before === 0 && added.length === 1
    }).pipe(Effect.orDie)

  /** Forgets a socket; true when it was the being's last (the being just went offline). */
  const close = (beingId: string, connectionId: string) =>
    Effect.gen(function* () {
      const removed = yield* sql`DELETE FROM being_sockets WHERE connection_id = ${connectionId} AND being_id = ${beingId}
        RETURNING connection_id`
      return removed.length === 1 && (yield* socketsOf(beingId)) === 0
    }).pipe(Effect.orDie)

  return { open, close } as const
})

/** How many beings are online node-wide (for /api/health). */
export const onlineBeings = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql<{ n: number }>`SELECT count(DISTINCT being_id) AS n FROM being_sockets`.pipe(Effect.map((rows) => rows[0].n))
)

/** No socket survives the process that held it: at boot every row is stale. */
export const forgetSockets = Effect.flatMap(SqlClient.SqlClient, (sql) => sql`DELETE FROM being_sockets`)
