/** The table that carries a cross-process message too large for a NOTIFY payload (broadcast.ts). */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import type { Migrations } from "../../kernel/database.ts"

export const broadcastMigrations: Migrations = {
  "0095_broadcast_overflow": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    // One row per large message: its id is what is notified; every listener reads it once, and
    // rows older than a minute are swept by the next large message's sender.
    yield* sql`CREATE TABLE broadcast_overflow (
      id TEXT PRIMARY KEY,
      payload TEXT NOT NULL,
      created_at TEXT NOT NULL
    )`
    yield* sql`CREATE INDEX broadcast_overflow_created ON broadcast_overflow (created_at)`
  })
}
