/**
 * The `twin_connections` table: a being's connection to a provider (one per provider) and the
 * state of its last sync, which GET /api/twin/status shows beside each provider.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { JsonValue } from "../../../kernel/contract/json.ts"
import { JsonColumn, operation } from "../../../kernel/repository.ts"
import { beingCount } from "./count.ts"
import { SyncState } from "../contract/records.ts"

const Meta = Schema.Record({ key: Schema.String, value: JsonValue })

export const TwinConnection = Schema.Struct({
  id: Schema.String,
  beingId: Schema.String,
  provider: Schema.String,
  label: Schema.String,
  status: Schema.Literal("connected", "pending", "error", "disconnected"),
  meta: JsonColumn(Meta),
  lastSyncAt: Schema.NullOr(Schema.String),
  createdAt: Schema.String,
  syncStatus: SyncState.fields.status,
  syncStartedAt: Schema.NullOr(Schema.String),
  syncFinishedAt: Schema.NullOr(Schema.String),
  syncError: Schema.NullOr(Schema.String),
  syncDetail: JsonColumn(Meta)
})
export type TwinConnection = typeof TwinConnection.Type

const columns = `id, being_id AS "beingId", provider, label, status, meta, last_sync_at AS "lastSyncAt", created_at AS "createdAt",
  sync_status AS "syncStatus", sync_started_at AS "syncStartedAt", sync_finished_at AS "syncFinishedAt",
  sync_error AS "syncError", sync_detail AS "syncDetail"`

const Finish = Schema.Struct({
  id: Schema.String,
  status: Schema.Literal("done", "error"),
  at: Schema.String,
  error: Schema.NullOr(Schema.String),
  detail: JsonColumn(Meta)
})

export class ConnectionsRepository extends Effect.Service<ConnectionsRepository>()("twin/ConnectionsRepository", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const all = sql.literal(columns)

    const find = operation("twin.findConnection", SqlSchema.findOne({
      Request: Schema.Struct({ beingId: Schema.String, provider: Schema.String }),
      Result: TwinConnection,
      execute: ({ beingId, provider }) => sql`SELECT ${all} FROM twin_connections WHERE being_id = ${beingId} AND provider = ${provider}`
    }))

    const list = operation("twin.listConnections", SqlSchema.findAll({
      Request: Schema.String,
      Result: TwinConnection,
      execute: (beingId) => sql`SELECT ${all} FROM twin_connections WHERE being_id = ${beingId} ORDER BY provider`
    }))

    /** Connects (or reconnects) the being to the provider and marks its sync running; the row keeps its id and creation. */
    const startSync = operation("twin.startSync", SqlSchema.void({
      Request: TwinConnection,
      execute: (row) => sql`INSERT INTO twin_connections ${sql.insert({
        id: row.id,
        being_id: row.beingId,
        provider: row.provider,
        label: row.label,
        status: row.status,
        meta: row.meta,
        last_sync_at: row.lastSyncAt,
        created_at: row.createdAt,
        sync_status: row.syncStatus,
        sync_started_at: row.syncStartedAt,
        sync_finished_at: row.syncFinishedAt,
        sync_error: row.syncError,
        sync_detail: row.syncDetail
      })} ON CONFLICT (being_id, provider) DO UPDATE SET label = excluded.label, status = excluded.status, meta = excluded.meta,
        sync_status = excluded.sync_status, sync_started_at = excluded.sync_started_at, sync_finished_at = NULL,
        sync_error = NULL, sync_detail = excluded.sync_detail`
    }))

    /** A finished sync: done (and so the connection's lastSyncAt) or failed, with its counts. */
    const finishSync = operation("twin.finishSync", SqlSchema.void({
      Request: Finish,
      execute: ({ id, status, at, error, detail }) => sql`UPDATE twin_connections SET sync_status = ${status},
        sync_finished_at = ${at}, sync_error = ${error}, sync_detail = ${detail},
        last_sync_at = ${status === "done" ? at : sql`last_sync_at`} WHERE id = ${id}`
    }))

    /** A sync the node stopped in the middle of (a restart) did not finish: said so instead of running forever. */
    const abandonRunning = operation("twin.abandonSyncs", SqlSchema.void({
      Request: Schema.Struct({ at: Schema.String, error: Schema.String }),
      execute: ({ at, error }) => sql`UPDATE twin_connections SET sync_status = 'error', sync_finished_at = ${at}, sync_error = ${error}
        WHERE sync_status = 'running'`
    }))

    const count = beingCount("twin.countConnections", (beingId) => sql`SELECT COUNT(*) AS total FROM twin_connections WHERE being_id = ${beingId} AND status = 'connected'`)

    return { find, list, startSync, finishSync, abandonRunning, count } as const
  })
}) {}
