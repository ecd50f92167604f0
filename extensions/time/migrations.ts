/**
 * The time feature's tables: the scheduler's due jobs, to-dos and calendar events. Times are
 * stored as UTC ISO strings (`Date.toISOString`), so comparing them as text orders them in time.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import type { Migrations } from "../../kernel/database.ts"

export const timeMigrations: Migrations = {
  "0700_time_scheduled_jobs": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    // One row per due action; `revision` tells a job fired from the same key scheduled again meanwhile.
    yield* sql`CREATE TABLE scheduled_jobs (
      key TEXT PRIMARY KEY,
      kind TEXT NOT NULL,
      being_id TEXT REFERENCES beings (id) ON DELETE CASCADE,
      due_at TEXT NOT NULL,
      payload TEXT NOT NULL,
      revision INTEGER NOT NULL,
      attempts INTEGER NOT NULL DEFAULT 0,
      created_at TEXT NOT NULL
    )`
    yield* sql`CREATE INDEX scheduled_jobs_by_due ON scheduled_jobs (due_at)`
  }),
  "0701_time_todos": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`CREATE TABLE todos (
      id TEXT PRIMARY KEY,
      being_id TEXT NOT NULL REFERENCES beings (id) ON DELETE CASCADE,
      title TEXT NOT NULL,
      notes TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('open', 'done', 'deferred', 'dropped')),
      priority TEXT NOT NULL CHECK (priority IN ('low', 'normal', 'high', 'urgent')),
      due_at TEXT,
      completed_at TEXT,
      project_id TEXT,
      memory_id TEXT,
      deferred_count INTEGER NOT NULL DEFAULT 0,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`
    yield* sql`CREATE INDEX todos_by_being ON todos (being_id, status)`
  }),
  "0702_time_calendar_events": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`CREATE TABLE calendar_events (
      id TEXT PRIMARY KEY,
      being_id TEXT NOT NULL REFERENCES beings (id) ON DELETE CASCADE,
      title TEXT NOT NULL,
      description TEXT NOT NULL,
      location TEXT NOT NULL,
      start_at TEXT NOT NULL,
      end_at TEXT,
      all_day INTEGER NOT NULL,
      recurrence TEXT,
      project_id TEXT,
      signal_id TEXT,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`
    yield* sql`CREATE INDEX calendar_events_by_being ON calendar_events (being_id, start_at)`
  })
}
