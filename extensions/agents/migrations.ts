/**
 * The agents table: one row per role card. The being wearing it is a row in `beings` of kind
 * 'agent' (no email, no password, so it can never sign in); `skills` holds the chosen skills only.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import type { Migrations } from "../../kernel/database.ts"

export const agentMigrations: Migrations = {
  "0400_studio_agents": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`CREATE TABLE agents (
      id TEXT PRIMARY KEY,
      owner_id TEXT NOT NULL REFERENCES beings (id) ON DELETE CASCADE,
      being_id TEXT NOT NULL REFERENCES beings (id) ON DELETE CASCADE,
      name TEXT NOT NULL,
      role TEXT NOT NULL,
      description TEXT NOT NULL,
      avatar TEXT NOT NULL,
      skills TEXT NOT NULL,
      tier TEXT NOT NULL,
      system_prompt TEXT NOT NULL,
      is_public INTEGER NOT NULL CHECK (is_public IN (0, 1)),
      created_at TEXT NOT NULL
    )`
    yield* sql`CREATE INDEX agents_by_owner ON agents (owner_id, created_at)`
    yield* sql`CREATE INDEX agents_public ON agents (created_at) WHERE is_public = 1`
    yield* sql`CREATE INDEX agents_by_being ON agents (being_id)`
  })
}
