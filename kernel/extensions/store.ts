/**
 * The `plugins` table (see migrations.ts). The manifest is kept as it was validated at install
 * so the listing can still name a plugin whose folder has since gone bad.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { PluginStatus } from "../contract/plugins.ts"
import { CapabilityKind } from "../contract/capabilities.ts"
import { PluginSource } from "../contract/manifest.ts"

const PluginRow = Schema.Struct({
  id: Schema.String,
  namespace: Schema.String,
  version: Schema.String,
  source: Schema.parseJson(PluginSource),
  /** Raw JSON: decoding it is the host's business, and may fail after a schema change. */
  manifest: Schema.String,
  granted: Schema.parseJson(Schema.Array(CapabilityKind)),
  status: PluginStatus,
  error: Schema.NullOr(Schema.String),
  installed_at: Schema.String
})
export type PluginRow = typeof PluginRow.Type

const decodeRows = Schema.decodeUnknown(Schema.Array(PluginRow))

/** Storage faults are defects: the host cannot answer a plugin request sensibly without its table. */
export const makePluginStore = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  return {
    list: sql`SELECT * FROM plugins ORDER BY installed_at, id`.pipe(Effect.flatMap(decodeRows), Effect.orDie),
    insert: (row: PluginRow) =>
      sql`INSERT INTO plugins ${sql.insert({
        ...row,
        source: JSON.stringify(row.source),
        granted: JSON.stringify(row.granted)
      })}`.pipe(Effect.asVoid, Effect.orDie),
    setState: (id: string, state: Pick<PluginRow, "version" | "manifest" | "status" | "error">) =>
      sql`UPDATE plugins SET ${sql.update(state)} WHERE id = ${id}`.pipe(Effect.asVoid, Effect.orDie),
    remove: (id: string) => sql`DELETE FROM plugins WHERE id = ${id}`.pipe(Effect.asVoid, Effect.orDie)
  }
})
export type PluginStore = Effect.Effect.Success<typeof makePluginStore>
