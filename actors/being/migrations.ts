/**
 * Tables the being actor owns: its signals, and its open sockets (presence). Only the actor
 * writes them; the host reads them (lists, counts) through signals-repository.ts and
 * being-sockets-repository.ts.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import type { Migrations } from "../../kernel/database.ts"
import { addSequenceColumn } from "../../kernel/sequence-column.ts"

export const beingMigrations: Migrations = {
  "0300_being_signals": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`CREATE TABLE signals (
      id TEXT PRIMARY KEY,
      being_id TEXT NOT NULL REFERENCES beings (id) ON DELETE CASCADE,
      kind TEXT NOT NULL CHECK (kind IN ('decision', 'insight', 'reminder', 'alert', 'question', 'celebration')),
      title TEXT NOT NULL,
      body TEXT NOT NULL,
      options TEXT NOT NULL,
      priority TEXT NOT NULL CHECK (priority IN ('low', 'normal', 'high', 'urgent')),
      due_at TEXT,
      action TEXT,
      source TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('open', 'answered', 'dismissed')),
      answer TEXT,
      action_result TEXT,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      answered_at TEXT
    )`
    yield* sql`CREATE INDEX signals_by_being ON signals (being_id, status, created_at)`
    // A row per open socket; no socket outlives the process, so the actor's layer empties it at boot.
    yield* sql`CREATE TABLE being_sockets (
      connection_id TEXT PRIMARY KEY,
      being_id TEXT NOT NULL REFERENCES beings (id) ON DELETE CASCADE,
      opened_at TEXT NOT NULL
    )`
    yield* sql`CREATE INDEX being_sockets_by_being ON being_sockets (being_id)`
  }),
  "0301_being_hush_gate": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    // The gate's stamp on each signal (null before the gate existed), its trigger and decision
    // beside it for counting, and while a signal is held, when it is released.
    yield* sql`ALTER TABLE signals ADD COLUMN gate TEXT`
    yield* sql`ALTER TABLE signals ADD COLUMN gate_trigger TEXT`
    yield* sql`ALTER TABLE signals ADD COLUMN gate_decision TEXT`
    yield* sql`ALTER TABLE signals ADD COLUMN held_until TEXT`
    yield* sql`CREATE INDEX signals_by_gate ON signals (being_id, gate_trigger, created_at)`
    yield* sql`CREATE TABLE hush_settings (
      being_id TEXT PRIMARY KEY REFERENCES beings (id) ON DELETE CASCADE,
      level TEXT NOT NULL CHECK (level IN ('normal', 'fewer', 'off')),
      quiet_start INTEGER NOT NULL,
      quiet_end INTEGER NOT NULL,
      daily_cap INTEGER NOT NULL,
      muted_until TEXT,
      updated_at TEXT NOT NULL
    )`
  }),
  // Signals listed newest first keep the order they were raised in within one millisecond (was SQLite's rowid).
  "0302_signals_seq": addSequenceColumn("signals"),
  // Presence in a cluster: each socket's row names the process holding it, and each process keeps
  // a lease it renews; rows of a process whose lease lapsed (killed, or restarted) are swept.
  // Rows from before carry no process and are swept as lapsed.
  "0303_being_socket_processes": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`ALTER TABLE being_sockets ADD COLUMN process_id TEXT`
    yield* sql`CREATE INDEX being_sockets_by_process ON being_sockets (process_id)`
    yield* sql`CREATE TABLE presence_leases (
      process_id TEXT PRIMARY KEY,
      alive_until TEXT NOT NULL
    )`
  }),
  // The gate's count of today's raised-or-held nudges reads those rows alone: the index without the decision walked
  // every proactive signal of the day, refused ones too (500 refused: 41 µs a count against 3 µs, docs/benchmarks.md).
  "0304_signals_by_gate_decision": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`CREATE INDEX signals_by_gate_decision ON signals (being_id, gate_trigger, gate_decision, created_at)`
    yield* sql`DROP INDEX signals_by_gate`
  })
}
