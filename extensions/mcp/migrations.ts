/**
 * The MCP clients people mint for their assistants: each a token's digest, its grants and its person; and the bearer
 * tokens owners give remote MCP servers at a plugin's install, sealed.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import type { Migrations } from "../../kernel/database.ts"

export const mcpMigrations: Migrations = {
  "1300_mcp_clients": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`CREATE TABLE mcp_clients (
      id TEXT PRIMARY KEY,
      being_id TEXT NOT NULL REFERENCES beings (id) ON DELETE CASCADE,
      name TEXT NOT NULL,
      grants TEXT NOT NULL,
      token_digest TEXT NOT NULL UNIQUE,
      created_at TEXT NOT NULL
    )`
    yield* sql`CREATE INDEX mcp_clients_by_being ON mcp_clients (being_id, created_at)`
  }),
  "1301_mcp_plugin_tokens": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`CREATE TABLE mcp_plugin_tokens (
      plugin_id TEXT PRIMARY KEY,
      sealed TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`
  })
}
