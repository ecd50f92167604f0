/** The seed actor's table (11xx, with the federation's): the devices the owner paired. */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import type { Migrations } from "../../kernel/database.ts"

export const seedMigrations: Migrations = {
  "1104_federation_seeds": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    // The being outlives its pairing (an unpaired seed's being stays); a pairing never outlives its being.
    // `nonce` is the one the next beat or act must carry.
    yield* sql`CREATE TABLE federation_seeds (
      did TEXT PRIMARY KEY,
      being_id TEXT NOT NULL UNIQUE REFERENCES beings (id) ON DELETE CASCADE,
      name TEXT NOT NULL,
      profile TEXT,
      grants TEXT NOT NULL DEFAULT '[]',
      status TEXT NOT NULL CHECK (status IN ('paired', 'blocked')),
      seq INTEGER NOT NULL DEFAULT 0,
      nonce TEXT NOT NULL,
      beats INTEGER NOT NULL DEFAULT 0,
      acts INTEGER NOT NULL DEFAULT 0,
      refused INTEGER NOT NULL DEFAULT 0,
      paired_at TEXT NOT NULL,
      last_seen_at TEXT,
      last_note TEXT,
      last_error TEXT
    )`
  })
}
