/**
 * The generators table. `owner_id` is a being's id, or 'system' for the seeded catalogue, so it
 * has no foreign key. Slugs are unique across the node: GET /api/studio/generators/:idOrSlug
 * must name one generator. Steps, form and output kinds are JSON. `runs` is unused: a generator's
 * runs are counted from the caller's projects (generators-repository.ts).
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import type { Migrations } from "../../kernel/database.ts"

export const generatorMigrations: Migrations = {
  "0410_studio_generators": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`CREATE TABLE generators (
      id TEXT PRIMARY KEY,
      owner_id TEXT NOT NULL,
      name TEXT NOT NULL,
      slug TEXT NOT NULL UNIQUE,
      description TEXT NOT NULL,
      icon TEXT NOT NULL,
      inputs_schema TEXT NOT NULL,
      steps TEXT NOT NULL,
      output_kinds TEXT NOT NULL,
      price_credits INTEGER NOT NULL,
      is_public INTEGER NOT NULL CHECK (is_public IN (0, 1)),
      runs INTEGER NOT NULL DEFAULT 0,
      created_at TEXT NOT NULL
    )`
    yield* sql`CREATE INDEX generators_by_owner ON generators (owner_id)`
  })
}
