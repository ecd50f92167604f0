/**
 * The `bridge_storage` table (see migrations.ts): the key-value storage the bridge's storage.*
 * methods read and write, one set of keys per scope (a plugin's id; a seed's `seed:<did>`) and
 * being, so no caller ever reads another's keys or another being's. Values are JSON.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { JsonValue } from "../contract/json.ts"
import { JsonColumn, operation } from "../repository.ts"

const Owner = Schema.Struct({ scope: Schema.String, beingId: Schema.String })
const Key = Schema.Struct({ ...Owner.fields, key: Schema.String })
const Entry = Schema.Struct({ ...Key.fields, value: JsonColumn(JsonValue), updatedAt: Schema.String })
const StoredValue = Schema.Struct({ value: JsonColumn(JsonValue) })
const KeyRow = Schema.Struct({ key: Schema.String })
const Count = Schema.Struct({ count: Schema.Number })

export class BridgeStorageRepository extends Effect.Service<BridgeStorageRepository>()(
  "kernel/BridgeStorageRepository",
  {
    effect: Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient

      const get = operation(
        "bridgeStorage.get",
        SqlSchema.findOne({
          Request: Key,
          Result: StoredValue,
          execute: (key) => sql`SELECT value FROM bridge_storage
        WHERE scope = ${key.scope} AND being_id = ${key.beingId} AND key = ${key.key}`
        })
      )

      const put = operation(
        "bridgeStorage.put",
        SqlSchema.void({
          Request: Entry,
          execute: (entry) => sql`INSERT INTO bridge_storage (scope, being_id, key, value, updated_at)
        VALUES (${entry.scope}, ${entry.beingId}, ${entry.key}, ${entry.value}, ${entry.updatedAt})
        ON CONFLICT (scope, being_id, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`
        })
      )

      /** Keys starting with `prefix`, in key order (the prefix compared as a range, so no LIKE escaping). */
      const keys = operation(
        "bridgeStorage.keys",
        SqlSchema.findAll({
          Request: Schema.Struct({ ...Owner.fields, prefix: Schema.String, limit: Schema.Number }),
          Result: KeyRow,
          execute: (query) => sql`SELECT key FROM bridge_storage
        WHERE scope = ${query.scope} AND being_id = ${query.beingId} AND substr(key, 1, ${query.prefix.length}) = ${query.prefix}
        ORDER BY key LIMIT ${query.limit}`
        })
      )

      const count = operation(
        "bridgeStorage.count",
        SqlSchema.single({
          Request: Owner,
          Result: Count,
          execute: (owner) =>
            sql`SELECT COUNT(*) AS count FROM bridge_storage WHERE scope = ${owner.scope} AND being_id = ${owner.beingId}`
        })
      )

      /** The bytes a scope keeps for a being: every key and value as stored (UTF-8; values as JSON text). */
      const bytes = operation(
        "bridgeStorage.bytes",
        SqlSchema.single({
          Request: Owner,
          Result: Count,
          execute: (owner) =>
            sql.onDialectOrElse({
              pg: () => sql`SELECT COALESCE(SUM(octet_length(key) + octet_length(value)), 0)::int AS count
                FROM bridge_storage WHERE scope = ${owner.scope} AND being_id = ${owner.beingId}`,
              orElse:
                () => sql`SELECT COALESCE(SUM(length(CAST(key AS BLOB)) + length(CAST(value AS BLOB))), 0) AS count
                FROM bridge_storage WHERE scope = ${owner.scope} AND being_id = ${owner.beingId}`
            })
        })
      )

      const remove = operation(
        "bridgeStorage.remove",
        SqlSchema.findAll({
          Request: Key,
          Result: KeyRow,
          execute: (key) => sql`DELETE FROM bridge_storage
        WHERE scope = ${key.scope} AND being_id = ${key.beingId} AND key = ${key.key} RETURNING key`
        })
      )

      /** Everything a scope stored, for every being: its plugin was uninstalled. */
      const removeScope = operation(
        "bridgeStorage.removeScope",
        SqlSchema.void({
          Request: Schema.String,
          execute: (scope) => sql`DELETE FROM bridge_storage WHERE scope = ${scope}`
        })
      )

      return { get, put, keys, count, bytes, remove, removeScope } as const
    })
  }
) {}
