/**
 * The push feature's tables: the node's one VAPID key pair (the private key sealed like connection secrets), and each
 * person's subscribed devices, one row per person and endpoint (the same endpoint subscribed again updates its row).
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import type { Migrations } from "../../kernel/database.ts"

export const pushMigrations: Migrations = {
  "1400_push": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`CREATE TABLE push_keys (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      public_key TEXT NOT NULL,
      private_key_sealed TEXT NOT NULL,
      created_at TEXT NOT NULL
    )`
    yield* sql`CREATE TABLE push_subscriptions (
      id TEXT PRIMARY KEY,
      being_id TEXT NOT NULL REFERENCES beings (id) ON DELETE CASCADE,
      endpoint TEXT NOT NULL,
      p256dh TEXT NOT NULL,
      auth TEXT NOT NULL,
      device TEXT NOT NULL,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      UNIQUE (being_id, endpoint)
    )`
  })
}
