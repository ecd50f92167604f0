/** The ledger of model calls: one row per call made, what it cost and what it was for. */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import { columnTypes } from "../../kernel/column-types.ts"
import type { Migrations } from "../../kernel/database.ts"
import { addSequenceColumn } from "../../kernel/sequence-column.ts"

export const modelMigrations: Migrations = {
  "0200_llm_calls": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const t = yield* columnTypes
    // No foreign keys: a call stays in the ledger (and in the day's spend) after its being or project is gone.
    yield* sql`CREATE TABLE llm_calls (
      id TEXT PRIMARY KEY,
      being_id TEXT,
      project_id TEXT,
      tier TEXT NOT NULL,
      model TEXT NOT NULL,
      provider TEXT NOT NULL CHECK (provider IN ('local', 'remote')),
      base_url TEXT NOT NULL,
      fallback INTEGER NOT NULL CHECK (fallback IN (0, 1)),
      prompt_tokens INTEGER NOT NULL,
      completion_tokens INTEGER NOT NULL,
      usage_reported INTEGER NOT NULL CHECK (usage_reported IN (0, 1)),
      cost_usd ${t.double} NOT NULL,
      pricing TEXT NOT NULL,
      purpose TEXT NOT NULL,
      duration_ms INTEGER NOT NULL,
      created_at TEXT NOT NULL
    )`
    yield* sql`CREATE INDEX llm_calls_by_time ON llm_calls (created_at)`
    yield* sql`CREATE INDEX llm_calls_by_project ON llm_calls (project_id) WHERE project_id IS NOT NULL`
    yield* sql`CREATE INDEX llm_calls_by_being ON llm_calls (being_id, created_at)`
  }),
  /** Each call's billed unit and quantity: the speech, video and transcribe tiers bill in their own. */
  "0201_llm_calls_units": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const t = yield* columnTypes
    yield* sql`ALTER TABLE llm_calls ADD COLUMN unit TEXT NOT NULL DEFAULT 'tokens'`
    yield* sql`ALTER TABLE llm_calls ADD COLUMN quantity ${t.double} NOT NULL DEFAULT 0`
    yield* sql`UPDATE llm_calls SET quantity = prompt_tokens + completion_tokens`
  }),
  // Calls listed newest first keep the order they were made in within one millisecond (was SQLite's rowid).
  "0202_llm_calls_seq": addSequenceColumn("llm_calls"),
  /** The owner's providers (a key as its sealed envelope), every provider's last check, and tiers bound in Settings. */
  "0203_llm_providers": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`CREATE TABLE llm_providers (
      id TEXT PRIMARY KEY,
      name TEXT NOT NULL,
      base_url TEXT NOT NULL,
      api_key TEXT,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`
    // No foreign key: the environment's and the built-in providers are checked too, and have no row.
    yield* sql`CREATE TABLE llm_provider_checks (
      provider_id TEXT PRIMARY KEY,
      models TEXT,
      checked_at TEXT NOT NULL,
      error TEXT
    )`
    yield* sql`CREATE TABLE llm_tier_bindings (
      tier TEXT PRIMARY KEY,
      provider_id TEXT NOT NULL,
      model TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`
  }),
  /**
   * The spend ceilings' two sums, read before every call (the project's calls, the day's), from the indexes alone: each
   * index holds the cost beside its key, so a sum reads no row of the table. Each serves every lookup the index it
   * replaces served (the same leading column, the same condition).
   */
  "0204_llm_calls_spend_indexes": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`CREATE INDEX llm_calls_spend_by_time ON llm_calls (created_at, cost_usd)`
    yield* sql`CREATE INDEX llm_calls_spend_by_project ON llm_calls (project_id, cost_usd) WHERE project_id IS NOT NULL`
    yield* sql`DROP INDEX llm_calls_by_time`
    yield* sql`DROP INDEX llm_calls_by_project`
  })
}
