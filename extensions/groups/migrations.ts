/**
 * The tables of groups and crews. A member row is one being's exact membership of one group:
 * every access check reads one such row (containment grants nothing). A crew row keeps its
 * project's binding, and when it last changed, even once cleared: a run compares that moment
 * with its team's to know whether to assemble again.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import type { Migrations } from "../../kernel/database.ts"

export const groupMigrations: Migrations = {
  "1200_groups": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`CREATE TABLE groups (
      id TEXT PRIMARY KEY,
      name TEXT NOT NULL,
      kind TEXT NOT NULL,
      parent_id TEXT REFERENCES groups (id),
      created_by TEXT NOT NULL REFERENCES beings (id) ON DELETE CASCADE,
      created_at TEXT NOT NULL
    )`
    yield* sql`CREATE INDEX groups_by_parent ON groups (parent_id)`
    yield* sql`CREATE TABLE group_members (
      group_id TEXT NOT NULL REFERENCES groups (id) ON DELETE CASCADE,
      being_id TEXT NOT NULL REFERENCES beings (id) ON DELETE CASCADE,
      role TEXT NOT NULL,
      added_at TEXT NOT NULL,
      PRIMARY KEY (group_id, being_id)
    )`
    yield* sql`CREATE INDEX group_members_by_being ON group_members (being_id)`
  }),
  "1210_project_crews": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`CREATE TABLE project_crews (
      project_id TEXT PRIMARY KEY REFERENCES projects (id) ON DELETE CASCADE,
      group_id TEXT REFERENCES groups (id) ON DELETE SET NULL,
      include_descendants INTEGER NOT NULL DEFAULT 0 CHECK (include_descendants IN (0, 1)),
      set_by TEXT NOT NULL,
      set_at TEXT NOT NULL
    )`
  })
}
