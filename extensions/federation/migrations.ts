/**
 * The federation's tables (11xx): keys (the node's and each being's Ed25519 key; a seed's, in
 * part two, without a secret) and one row per federated document and peer (the peers' own table
 * is the peer actor's, actors/peer/migrations.ts). The digest index makes an inbound envelope land once however often
 * it is
 * replayed.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import { columnTypes } from "../../kernel/column-types.ts"
import type { Migrations } from "../../kernel/database.ts"

export const federationMigrations: Migrations = {
  "1100_federation_keys": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`CREATE TABLE federation_keys (
      did TEXT PRIMARY KEY,
      role TEXT NOT NULL CHECK (role IN ('node', 'being')),
      being_id TEXT UNIQUE REFERENCES beings (id) ON DELETE CASCADE,
      secret TEXT,
      created_at TEXT NOT NULL,
      CHECK ((role = 'node') = (being_id IS NULL))
    )`
    // One node key, ever: the database itself permits no second.
    yield* sql`CREATE UNIQUE INDEX federation_keys_one_node ON federation_keys (role) WHERE role = 'node'`
  }),
  "1102_federation_messages": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`CREATE TABLE federation_messages (
      id TEXT PRIMARY KEY,
      direction TEXT NOT NULL CHECK (direction IN ('in', 'out')),
      kind TEXT NOT NULL CHECK (kind IN ('message', 'post', 'retraction')),
      thread_id TEXT,
      message_id TEXT NOT NULL,
      peer_did TEXT NOT NULL,
      author_did TEXT NOT NULL,
      audience_did TEXT NOT NULL,
      digest TEXT NOT NULL,
      sealed INTEGER NOT NULL CHECK (sealed IN (0, 1)),
      state TEXT NOT NULL,
      attempts INTEGER NOT NULL DEFAULT 0,
      next_attempt_at TEXT,
      last_error TEXT,
      verified INTEGER NOT NULL CHECK (verified IN (0, 1)),
      document TEXT NOT NULL,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`
    yield* sql`CREATE UNIQUE INDEX federation_messages_once ON federation_messages (direction, digest, peer_did)`
    yield* sql`CREATE INDEX federation_messages_by_peer ON federation_messages (peer_did, created_at)`
  }),
  /**
   * A conversation with a remote being: its local half is the direct thread (gone with it, so a
   * being that deletes the thread ends the conversation here); `local_message_id` links a wire
   * row to the thread message it carried or landed.
   */
  "1103_federation_conversations": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`CREATE TABLE federation_conversations (
      thread_id TEXT PRIMARY KEY REFERENCES threads (id) ON DELETE CASCADE,
      local_being_id TEXT NOT NULL REFERENCES beings (id) ON DELETE CASCADE,
      peer_did TEXT NOT NULL,
      remote_did TEXT NOT NULL,
      remote_handle TEXT,
      petname TEXT,
      created_at TEXT NOT NULL,
      UNIQUE (local_being_id, peer_did, remote_did)
    )`
    yield* sql`ALTER TABLE federation_messages ADD COLUMN local_message_id TEXT`
    yield* sql`CREATE INDEX federation_messages_due ON federation_messages (direction, state, next_attempt_at)`
    yield* sql`CREATE INDEX federation_messages_by_thread ON federation_messages (thread_id, created_at)`
  }),
  /**
   * The relay (docs/federation.md "The relay"). As a relay: the nodes enrolled here and the sealed
   * envelopes held for them, filed under the enrolled did (the mailbox); a collected and
   * acknowledged envelope stays, as `acked`, until its hold ends, so a replayed deposit is taken
   * once. As a node reached through a relay: one row, the relay's did pinned at the first
   * enrolment that held, and the relay loop's counts.
   */
  "1108_federation_relay": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`CREATE TABLE federation_relay_enrolments (
      did TEXT PRIMARY KEY,
      enrolled_at TEXT NOT NULL,
      expires_at TEXT NOT NULL
    )`
    yield* sql`CREATE TABLE federation_relay_held (
      mailbox TEXT NOT NULL,
      digest TEXT NOT NULL,
      envelope TEXT NOT NULL,
      state TEXT NOT NULL CHECK (state IN ('held', 'handed', 'acked')),
      deposited_at TEXT NOT NULL,
      expires_at TEXT NOT NULL,
      PRIMARY KEY (mailbox, digest)
    )`
    yield* sql`CREATE INDEX federation_relay_held_expiry ON federation_relay_held (expires_at)`
    yield* sql`CREATE TABLE federation_relay_client (
      id TEXT PRIMARY KEY CHECK (id = 'relay'),
      endpoint TEXT,
      relay_did TEXT,
      enrolled_at TEXT,
      expires_at TEXT,
      limits TEXT,
      deposited INTEGER NOT NULL DEFAULT 0,
      collected INTEGER NOT NULL DEFAULT 0,
      last_error TEXT
    )`
  }),
  /**
   * The directory (docs/federation.md "The directory"). As a directory: one row per listed
   * handle, the node that listed it, its advertised endpoint, until when. As a node that
   * registers: one row, the directory's did pinned at the first registration that held.
   */
  "1109_federation_directory": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`CREATE TABLE federation_directory_entries (
      handle TEXT PRIMARY KEY,
      did TEXT NOT NULL,
      endpoint TEXT NOT NULL,
      registered_at TEXT NOT NULL,
      expires_at TEXT NOT NULL
    )`
    yield* sql`CREATE INDEX federation_directory_entries_did ON federation_directory_entries (did)`
    yield* sql`CREATE TABLE federation_directory_client (
      id TEXT PRIMARY KEY CHECK (id = 'directory'),
      endpoint TEXT,
      directory_did TEXT,
      advertised_endpoint TEXT,
      handles TEXT,
      registered_at TEXT,
      expires_at TEXT,
      last_error TEXT,
      credits_claimed INTEGER NOT NULL DEFAULT 0
    )`
  }),
  /**
   * The directory's registration credits: one row per did it granted credits, so a did is
   * granted once whatever it registers afterwards (its entries are replaced on each registration).
   */
  "1110_federation_directory_grants": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const t = yield* columnTypes
    yield* sql`CREATE TABLE federation_directory_grants (
      did TEXT PRIMARY KEY,
      credits ${t.bigint} NOT NULL,
      granted_at TEXT NOT NULL
    )`
  }),
  /**
   * Challenges a proof has used (proof.ts), by digest, until they are stale: in the database so a
   * recorded collect or enrolment replayed to another process of the node proves nothing there either.
   */
  "1115_federation_used_challenges": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`CREATE TABLE federation_used_challenges (
      digest TEXT PRIMARY KEY,
      forget_at TEXT NOT NULL
    )`
    yield* sql`CREATE INDEX federation_used_challenges_forget ON federation_used_challenges (forget_at)`
  })
}
