/**
 * The twin's tables: memories with their FTS5 index (kept in step by triggers, so a delete can
 * never leave a word entry behind), the profile and the activity log. Vectors live in sqlite-vec
 * tables made per dimension when the first vector of that size arrives
 * (repositories/memory-vectors-repository.ts), since the embed model decides the size.
 * FTS5 and the triggers are SQLite's; on PostgreSQL the index is a generated tsvector column.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import { columnTypes } from "../../kernel/column-types.ts"
import type { Migrations } from "../../kernel/database.ts"

export const twinMigrations: Migrations = {
  "0500_twin_memories": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const t = yield* columnTypes
    // `seq` is the rowid the FTS entry and the vector key on; `id` is the public one.
    yield* sql`CREATE TABLE twin_memories (
      seq ${t.rowid},
      id TEXT NOT NULL UNIQUE,
      being_id TEXT NOT NULL REFERENCES beings (id) ON DELETE CASCADE,
      kind TEXT NOT NULL CHECK (kind IN ('fact', 'episode', 'preference', 'relationship', 'document', 'insight')),
      content TEXT NOT NULL,
      importance ${t.double} NOT NULL CHECK (importance >= 0 AND importance <= 1),
      tags TEXT NOT NULL,
      source TEXT NOT NULL,
      created_at TEXT NOT NULL,
      embedding_model TEXT,
      embedding_dims INTEGER
    )`
    yield* sql`CREATE INDEX twin_memories_by_being ON twin_memories (being_id, created_at)`
    yield* sql`CREATE INDEX twin_memories_unembedded ON twin_memories (seq) WHERE embedding_model IS NULL`
    if (t.onPostgres) {
      // The word index is a generated tsvector column (english: stemmed, as FTS5's porter) with
      // a GIN index; being a column of the row, it needs no triggers to stay in step. Vectors are
      // plain rows (sqlite-vec has no PostgreSQL build and Debian 12 ships no pgvector); the
      // search over them comes with the twin's port (docs/decisions.md "PostgreSQL").
      yield* sql`ALTER TABLE twin_memories ADD COLUMN search tsvector
        GENERATED ALWAYS AS (to_tsvector('english', content || ' ' || tags)) STORED`
      yield* sql`CREATE INDEX twin_memories_search ON twin_memories USING GIN (search)`
      yield* sql`CREATE TABLE twin_memory_vectors (
        seq BIGINT PRIMARY KEY REFERENCES twin_memories (seq) ON DELETE CASCADE,
        being_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        model TEXT NOT NULL,
        dims INTEGER NOT NULL,
        embedding REAL[] NOT NULL
      )`
      yield* sql`CREATE INDEX twin_memory_vectors_by_being ON twin_memory_vectors (being_id, model, dims)`
      return
    }
    yield* sql`CREATE VIRTUAL TABLE twin_memories_fts USING fts5(
      content, tags, content = 'twin_memories', content_rowid = 'seq', tokenize = 'porter unicode61'
    )`
    yield* sql`CREATE TRIGGER twin_memories_fts_insert AFTER INSERT ON twin_memories BEGIN
      INSERT INTO twin_memories_fts (rowid, content, tags) VALUES (new.seq, new.content, new.tags);
    END`
    yield* sql`CREATE TRIGGER twin_memories_fts_delete AFTER DELETE ON twin_memories BEGIN
      INSERT INTO twin_memories_fts (twin_memories_fts, rowid, content, tags) VALUES ('delete', old.seq, old.content, old.tags);
    END`
  }),
  "0510_twin_profile_activity": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`CREATE TABLE twin_profiles (
      being_id TEXT PRIMARY KEY REFERENCES beings (id) ON DELETE CASCADE,
      facts TEXT NOT NULL,
      goals TEXT NOT NULL,
      routines TEXT NOT NULL,
      preferences TEXT NOT NULL,
      tone TEXT NOT NULL,
      timezone TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`
    yield* sql`CREATE TABLE twin_activity (
      id TEXT PRIMARY KEY,
      being_id TEXT NOT NULL REFERENCES beings (id) ON DELETE CASCADE,
      kind TEXT NOT NULL,
      summary TEXT NOT NULL,
      at TEXT NOT NULL
    )`
    yield* sql`CREATE INDEX twin_activity_by_being ON twin_activity (being_id, at)`
  }),
  "0520_twin_reflections": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const t = yield* columnTypes
    // How far each being's reflection has read: memories past `last_seq` are new to it.
    yield* sql`CREATE TABLE twin_reflections (
      being_id TEXT PRIMARY KEY REFERENCES beings (id) ON DELETE CASCADE,
      last_seq ${t.bigint} NOT NULL,
      reflected_at TEXT NOT NULL
    )`
  }),
  "0530_twin_connections_files": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const t = yield* columnTypes
    // A being's connection to a provider (the spec's Connection fields) with the state of its
    // last sync; one per being and provider. The connections feature, when it lands, takes it over.
    yield* sql`CREATE TABLE twin_connections (
      id TEXT PRIMARY KEY,
      being_id TEXT NOT NULL REFERENCES beings (id) ON DELETE CASCADE,
      provider TEXT NOT NULL,
      label TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('connected', 'pending', 'error', 'disconnected')),
      meta TEXT NOT NULL,
      last_sync_at TEXT,
      created_at TEXT NOT NULL,
      sync_status TEXT NOT NULL CHECK (sync_status IN ('idle', 'running', 'done', 'error')),
      sync_started_at TEXT,
      sync_finished_at TEXT,
      sync_error TEXT,
      sync_detail TEXT NOT NULL,
      UNIQUE (being_id, provider)
    )`
    // What the files provider indexed: one row per file, keyed by its path inside FILES_ROOT, with
    // what tells a changed file (size, mtime, content hash), the memories made of it and the line
    // the owner's file listing shows as its summary.
    yield* sql`CREATE TABLE twin_indexed_files (
      being_id TEXT NOT NULL REFERENCES beings (id) ON DELETE CASCADE,
      path TEXT NOT NULL,
      size ${t.bigint} NOT NULL,
      mtime TEXT NOT NULL,
      hash TEXT NOT NULL,
      memory_ids TEXT NOT NULL,
      summary TEXT,
      indexed_at TEXT NOT NULL,
      PRIMARY KEY (being_id, path)
    )`
  }),
  "0540_twin_connection_secrets": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    // A connection's secret fields, sealed as one envelope (secrets/envelope.ts); null when its
    // provider takes none. Only the connection's own being's calls ever open it.
    yield* sql`ALTER TABLE twin_connections ADD COLUMN secret TEXT`
  }),
  "0560_twin_voice_consents": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    // One consent per being, to one destination: the fingerprint it agreed to. A consent whose
    // key is not the current destination's is void (voice/voice.ts), so nothing is rewritten
    // when the settings move; the row only answers "agreed to what, when".
    yield* sql`CREATE TABLE twin_voice_consents (
      being_id TEXT PRIMARY KEY REFERENCES beings (id) ON DELETE CASCADE,
      consent_key TEXT NOT NULL,
      consented_at TEXT NOT NULL
    )`
  }),
  "0570_twin_chat_pairings": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    // The chat bridge's pairing of a being's chat_a connection: the pending code (a one-time
    // credential, so not in the connection's public meta) until a chat sends it, then that chat.
    // `bot` is a fingerprint of the token the chat paired through, never the token.
    yield* sql`CREATE TABLE twin_chat_pairings (
      being_id TEXT PRIMARY KEY REFERENCES beings (id) ON DELETE CASCADE,
      code TEXT UNIQUE,
      expires_at TEXT,
      bot TEXT,
      chat_id TEXT,
      chat_title TEXT,
      paired_at TEXT
    )`
  }),
  "0580_twin_learning": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    // What the learning loop has yet to read: one row per piece of a being's own text, keyed so
    // the same message, mail or file version is never queued twice; `attempts` and `retry_at`
    // hold a failed pass's backoff (learning-loop.ts).
    yield* sql`CREATE TABLE twin_learning_queue (
      being_id TEXT NOT NULL REFERENCES beings (id) ON DELETE CASCADE,
      source TEXT NOT NULL CHECK (source IN ('thread', 'chat', 'mail', 'file')),
      reference TEXT NOT NULL,
      text TEXT NOT NULL,
      enqueued_at TEXT NOT NULL,
      attempts INTEGER NOT NULL DEFAULT 0,
      retry_at TEXT,
      PRIMARY KEY (being_id, source, reference)
    )`
    yield* sql`CREATE INDEX twin_learning_queue_by_age ON twin_learning_queue (being_id, source, enqueued_at)`
    // The owner's switch per source; no row reads as every source on.
    yield* sql`CREATE TABLE twin_learning_sources (
      being_id TEXT PRIMARY KEY REFERENCES beings (id) ON DELETE CASCADE,
      thread INTEGER NOT NULL,
      chat INTEGER NOT NULL,
      mail INTEGER NOT NULL,
      file INTEGER NOT NULL,
      updated_at TEXT NOT NULL
    )`
  }),
  "0581_twin_oauth_clients": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    // The client the owner set in Settings for a plugin provider's OAuth 2.0 (the environment's
    // OAUTH_<PROVIDER>_CLIENT_* win over it). The secret is sealed as connection secrets are.
    yield* sql`CREATE TABLE twin_oauth_clients (
      provider TEXT PRIMARY KEY,
      client_id TEXT NOT NULL,
      secret TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`
  }),
  "0582_twin_connection_claims": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    // Work done once per connection across the processes of a cluster: the process running its
    // sync and until when its lease holds (renewed while it runs), and the process renewing its
    // OAuth tokens and until when. A claim whose time passed belongs to a process that is gone.
    yield* sql`ALTER TABLE twin_connections ADD COLUMN sync_claimer TEXT`
    yield* sql`ALTER TABLE twin_connections ADD COLUMN sync_lease_until TEXT`
    yield* sql`ALTER TABLE twin_connections ADD COLUMN renew_claimer TEXT`
    yield* sql`ALTER TABLE twin_connections ADD COLUMN renew_until TEXT`
  })
}
