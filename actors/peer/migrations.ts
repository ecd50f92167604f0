/** The peer actor's table (11xx, with the federation's): the nodes the owner added by hand. */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import type { Migrations } from "../../kernel/database.ts"

export const peerMigrations: Migrations = {
  "1101_federation_peers": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`CREATE TABLE federation_peers (
      node_did TEXT PRIMARY KEY,
      endpoint TEXT NOT NULL,
      name TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('unverified', 'verified', 'unreachable', 'refused', 'blocked')),
      label TEXT,
      profile TEXT,
      software TEXT,
      serves TEXT NOT NULL DEFAULT '[]',
      added_at TEXT NOT NULL,
      verified_at TEXT,
      last_seen_at TEXT,
      collected_at TEXT,
      relay TEXT,
      last_error TEXT,
      publish INTEGER NOT NULL DEFAULT 0 CHECK (publish IN (0, 1))
    )`
  })
}
