/** Tables of accounts: beings, access codes, sessions, the waitlist, mail tokens and invites. */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import type { Migrations } from "../../kernel/database.ts"

export const accountMigrations: Migrations = {
  "0001_accounts": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    // Emails compare without case (SQLite's NOCASE). PostgreSQL has no such collation: this one
    // (ICU, case-insensitive) gets the name `COLLATE NOCASE` resolves to there, so the tables
    // below read the same on both.
    yield* sql.onDialectOrElse({
      pg: () =>
        sql`CREATE COLLATION IF NOT EXISTS nocase (provider = icu, locale = 'und-u-ks-level2', deterministic = false)`,
      orElse: () => Effect.void
    })
    yield* sql`CREATE TABLE node_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`
    yield* sql`CREATE TABLE beings (
      id TEXT PRIMARY KEY,
      kind TEXT NOT NULL DEFAULT 'human',
      handle TEXT NOT NULL UNIQUE,
      display_name TEXT NOT NULL,
      email TEXT UNIQUE COLLATE NOCASE,
      password_hash TEXT,
      suspended_hash TEXT,
      is_owner INTEGER NOT NULL DEFAULT 0 CHECK (is_owner IN (0, 1)),
      email_verified_at TEXT,
      created_at TEXT NOT NULL
    )`
    // The database itself permits exactly one owner.
    yield* sql`CREATE UNIQUE INDEX beings_one_owner ON beings (is_owner) WHERE is_owner = 1`
    yield* sql`CREATE TABLE access_codes (
      code TEXT PRIMARY KEY,
      created_by TEXT NOT NULL,
      used_by TEXT REFERENCES beings (id),
      note TEXT NOT NULL DEFAULT '',
      is_bootstrap INTEGER NOT NULL DEFAULT 0,
      created_at TEXT NOT NULL,
      used_at TEXT
    )`
    yield* sql`CREATE TABLE sessions (
      id TEXT PRIMARY KEY,
      token_hash TEXT NOT NULL UNIQUE,
      being_id TEXT NOT NULL REFERENCES beings (id) ON DELETE CASCADE,
      created_at TEXT NOT NULL,
      expires_at TEXT NOT NULL
    )`
    yield* sql`CREATE INDEX sessions_by_being ON sessions (being_id)`
    yield* sql`CREATE TABLE waitlist (
      email TEXT PRIMARY KEY COLLATE NOCASE,
      name TEXT NOT NULL,
      why TEXT NOT NULL,
      created_at TEXT NOT NULL
    )`
    yield* sql`CREATE TABLE mail_tokens (
      token_hash TEXT PRIMARY KEY,
      being_id TEXT NOT NULL REFERENCES beings (id) ON DELETE CASCADE,
      purpose TEXT NOT NULL CHECK (purpose IN ('verify', 'reset')),
      email TEXT NOT NULL,
      created_at TEXT NOT NULL,
      expires_at TEXT NOT NULL,
      used_at TEXT
    )`
    yield* sql`CREATE INDEX mail_tokens_by_being ON mail_tokens (being_id, purpose)`
    yield* sql`CREATE TABLE invites (
      id TEXT PRIMARY KEY,
      email TEXT NOT NULL,
      note TEXT NOT NULL,
      code TEXT NOT NULL,
      sent INTEGER NOT NULL DEFAULT 0,
      error TEXT,
      created_by TEXT NOT NULL,
      created_at TEXT NOT NULL
    )`
  })
}
