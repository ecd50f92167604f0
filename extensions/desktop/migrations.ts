/** The desktop's own table: each being's widget layout (absent until the being stores one). */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import type { Migrations } from "../../kernel/database.ts"

export const desktopMigrations: Migrations = {
  "0310_desktop_layouts": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`CREATE TABLE desktop_layouts (
      being_id TEXT PRIMARY KEY REFERENCES beings (id) ON DELETE CASCADE,
      widgets TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`
  })
}
