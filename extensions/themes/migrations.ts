/**
 * The themes beings hold (bought copies, later their own) and the one each wears: numbered with the market that
 * delivers them.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import type { Migrations } from "../../kernel/database.ts"

export const themeMigrations: Migrations = {
  "0810_themes_owned": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`CREATE TABLE being_themes (
      id TEXT PRIMARY KEY,
      owner_id TEXT NOT NULL REFERENCES beings (id) ON DELETE CASCADE,
      name TEXT NOT NULL,
      color_scheme TEXT NOT NULL CHECK (color_scheme IN ('light', 'dark')),
      tokens TEXT NOT NULL,
      active INTEGER NOT NULL,
      created_at TEXT NOT NULL
    )`
    yield* sql`CREATE INDEX being_themes_by_owner ON being_themes (owner_id)`
  }),
  "0811_themes_choice": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    // Which theme a being wears, built-in or owned, in one place: being_themes' own flag could not name a built-in.
    yield* sql`CREATE TABLE being_theme_choice (
      being_id TEXT PRIMARY KEY REFERENCES beings (id) ON DELETE CASCADE,
      theme_id TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`
    yield* sql`ALTER TABLE being_themes DROP COLUMN active`
  })
}
