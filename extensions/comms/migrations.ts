/** The integrations' own table: OAuth consents under way, shared by every process of the node. */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import type { Migrations } from "../../kernel/database.ts"

export const integrationMigrations: Migrations = {
  "0595_oauth_pending_consents": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    // `seq` orders one being's consents (oldest first) when several start within one millisecond.
    yield* sql`CREATE TABLE oauth_pending_consents (
      state TEXT PRIMARY KEY,
      being_id TEXT NOT NULL,
      provider TEXT NOT NULL,
      verifier TEXT NOT NULL,
      seq INTEGER NOT NULL,
      expires_at TEXT NOT NULL
    )`
    yield* sql`CREATE INDEX oauth_pending_consents_being ON oauth_pending_consents (being_id, seq)`
    yield* sql`CREATE INDEX oauth_pending_consents_expiry ON oauth_pending_consents (expires_at)`
  })
}
