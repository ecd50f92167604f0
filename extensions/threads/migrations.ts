/**
 * The tables of threads: a thread, who is in it (a participant who deleted it has left, the
 * thread goes when the last one leaves) and its messages. The square keeps its own table
 * (`square_posts`): it is one public feed, not a conversation anyone is in.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import type { Migrations } from "../../kernel/database.ts"

export const threadMigrations: Migrations = {
  "1001_threads": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`CREATE TABLE threads (
      id TEXT PRIMARY KEY,
      kind TEXT NOT NULL,
      title TEXT NOT NULL,
      created_at TEXT NOT NULL
    )`
    yield* sql`CREATE TABLE thread_participants (
      thread_id TEXT NOT NULL REFERENCES threads (id) ON DELETE CASCADE,
      being_id TEXT NOT NULL REFERENCES beings (id) ON DELETE CASCADE,
      left_at TEXT,
      PRIMARY KEY (thread_id, being_id)
    )`
    yield* sql`CREATE INDEX thread_participants_by_being ON thread_participants (being_id, thread_id)`
    yield* sql`CREATE TABLE thread_messages (
      id TEXT PRIMARY KEY,
      thread_id TEXT NOT NULL REFERENCES threads (id) ON DELETE CASCADE,
      role TEXT NOT NULL,
      author_id TEXT,
      content TEXT NOT NULL,
      attachments TEXT NOT NULL,
      tool_calls TEXT NOT NULL,
      created_at TEXT NOT NULL
    )`
    yield* sql`CREATE INDEX thread_messages_by_thread ON thread_messages (thread_id, created_at, id)`
  }),
  "1002_muse_replies": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    // One row per thread a Muse reply runs on: the cluster-wide lease (repositories/muse-replies-repository.ts).
    // No foreign key: a thread deleted mid-reply leaves its holder to finish and give the lease back.
    yield* sql`CREATE TABLE muse_replies (
      thread_id TEXT PRIMARY KEY,
      being_id TEXT NOT NULL,
      holder TEXT NOT NULL,
      message_id TEXT,
      again INTEGER NOT NULL,
      text TEXT NOT NULL,
      tool_calls TEXT NOT NULL,
      expires_at TEXT NOT NULL
    )`
    yield* sql`CREATE INDEX muse_replies_by_expiry ON muse_replies (expires_at)`
  })
}
