/**
 * Installed plugins and their grants. Built-ins have no row: they come from the node's own code
 * at every boot. The namespace is unique here too, as a last guard behind the install rules.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import type { Migrations } from "../database.ts"

export const pluginMigrations: Migrations = {
  "0100_plugins": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`
      CREATE TABLE plugins (
        id TEXT PRIMARY KEY,
        namespace TEXT NOT NULL UNIQUE,
        version TEXT NOT NULL,
        source TEXT NOT NULL,
        manifest TEXT NOT NULL,
        granted TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('active', 'error')),
        error TEXT,
        installed_at TEXT NOT NULL
      )`
  }),
  /** The bridge's key-value storage: per scope (a plugin, a seed) and being (bridge-storage-repository.ts). */
  "0101_bridge_storage": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`
      CREATE TABLE bridge_storage (
        scope TEXT NOT NULL,
        being_id TEXT NOT NULL,
        key TEXT NOT NULL,
        value TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (scope, being_id, key)
      )`
  })
}
