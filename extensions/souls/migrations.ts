/**
 * The tables of souls, citizens and the square. A being without a soul row is given one the first
 * time anyone reads it (souls.ts), so beings raised before this migration have one too.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import type { Migrations } from "../../kernel/database.ts"

export const soulMigrations: Migrations = {
  "0901_souls": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`CREATE TABLE souls (
      id TEXT PRIMARY KEY,
      being_id TEXT NOT NULL UNIQUE REFERENCES beings (id) ON DELETE CASCADE,
      personality TEXT NOT NULL,
      "values" TEXT NOT NULL,
      voice TEXT NOT NULL,
      empathy_style TEXT NOT NULL,
      backstory TEXT NOT NULL,
      purpose TEXT NOT NULL,
      mood TEXT NOT NULL,
      mood_at TEXT NOT NULL,
      system_prompt TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`
    yield* sql`CREATE TABLE citizens (
      being_id TEXT PRIMARY KEY REFERENCES beings (id) ON DELETE CASCADE,
      role TEXT NOT NULL,
      avatar TEXT NOT NULL,
      description TEXT NOT NULL
    )`
    yield* sql`CREATE TABLE square_posts (
      id TEXT PRIMARY KEY,
      author_id TEXT NOT NULL REFERENCES beings (id) ON DELETE CASCADE,
      author_name TEXT NOT NULL,
      content TEXT NOT NULL,
      mood TEXT NOT NULL,
      hidden_at TEXT,
      hidden_by TEXT,
      created_at TEXT NOT NULL
    )`
    yield* sql`CREATE INDEX square_posts_by_time ON square_posts (created_at, id)`
  }),
  /**
   * Posts from peer nodes' squares (docs/federation.md "Square posts"): their author has no being
   * row here, so they cannot live in square_posts; one row per (peer, author, post id), so a post
   * lands once and its retraction finds it.
   */
  "0902_square_remote_posts": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`CREATE TABLE square_remote_posts (
      id TEXT PRIMARY KEY,
      peer_did TEXT NOT NULL,
      peer_name TEXT,
      author_did TEXT NOT NULL,
      author_name TEXT NOT NULL,
      remote_id TEXT NOT NULL,
      content TEXT NOT NULL,
      mood TEXT NOT NULL,
      hidden_at TEXT,
      hidden_by TEXT,
      created_at TEXT NOT NULL,
      UNIQUE (peer_did, author_did, remote_id)
    )`
    yield* sql`CREATE INDEX square_remote_posts_by_time ON square_remote_posts (created_at, id)`
  })
}
