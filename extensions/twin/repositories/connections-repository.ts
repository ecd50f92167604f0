/**
 * The `twin_connections` table: a being's connection to a provider (one per provider), the state
 * of its last sync, which GET /api/twin/status shows beside each provider, and its sealed secret.
 * The secret is read only by `secretOf`: no row schema here carries it, so no answer can.
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

/** The columns every new row names, from its encoded fields (meta is already JSON text there). */
const connectionColumns = (row: { readonly id: string; readonly beingId: string; readonly provider: string; readonly label: string; readonly status: string; readonly meta: unknown }) => ({
  id: row.id,
  being_id: row.beingId,
  provider: row.provider,
  label: row.label,
  status: row.status,
  meta: row.meta
})

const Owned = Schema.Struct({ id: Schema.String, beingId: Schema.String })

const Created = Schema.Struct({
  id: Schema.String,
  beingId: Schema.String,
  provider: Schema.String,
  label: Schema.String,
  status: TwinConnection.fields.status,
  meta: JsonColumn(Meta),
  createdAt: Schema.String,
  secret: Schema.NullOr(Schema.String)
})

const Changed = Schema.Struct({
  id: Schema.String,
  beingId: Schema.String,
  label: Schema.String,
  status: TwinConnection.fields.status,
  meta: JsonColumn(Meta),
  /** A new sealed secret, or undefined to keep the one stored. */
  secret: Schema.optionalWith(Schema.NullOr(Schema.String), { exact: true })
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

    /** Every being's connected connection to the provider: what the provider's cadence syncs. */
    const connectedTo = operation("twin.connectedTo", SqlSchema.findAll({
      Request: Schema.String,
      Result: TwinConnection,
      execute: (provider) => sql`SELECT ${all} FROM twin_connections WHERE provider = ${provider} AND status = 'connected' ORDER BY id`
    }))

    /** A connection by its id and provider, whoever's it is: what a webhook delivery names. */
    const findDelivered = operation("twin.findDeliveredConnection", SqlSchema.findOne({
      Request: Schema.Struct({ id: Schema.String, provider: Schema.String }),
      Result: TwinConnection,
      execute: ({ id, provider }) => sql`SELECT ${all} FROM twin_connections WHERE id = ${id} AND provider = ${provider}`
    }))

    /** Connects (or reconnects) the being to the provider and marks its sync running; the row keeps its id and creation. */
    const startSync = operation("twin.startSync", SqlSchema.void({
      Request: TwinConnection,
      execute: (row) => sql`INSERT INTO twin_connections ${sql.insert({
        ...connectionColumns(row),
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

    const findById = operation("twin.findConnectionById", SqlSchema.findOne({
      Request: Owned,
      Result: TwinConnection,
      execute: ({ id, beingId }) => sql`SELECT ${all} FROM twin_connections WHERE id = ${id} AND being_id = ${beingId}`
    }))

    /** A new connection; false when the being already has one to that provider (one per provider). */
    const create = operation("twin.createConnection", (row: typeof Created.Type) =>
      SqlSchema.findOne({
        Request: Created,
        Result: Schema.Struct({ id: Schema.String }),
        execute: (row) => sql`INSERT INTO twin_connections ${sql.insert({
          ...connectionColumns(row),
          last_sync_at: null,
          created_at: row.createdAt,
          sync_status: "idle",
          sync_started_at: null,
          sync_finished_at: null,
          sync_error: null,
          sync_detail: "{}",
          secret: row.secret
        })} ON CONFLICT (being_id, provider) DO NOTHING RETURNING id`
      })(row).pipe(Effect.map((inserted) => inserted._tag === "Some"))
    )

    const update = operation("twin.updateConnection", SqlSchema.void({
      Request: Changed,
      execute: (row) => sql`UPDATE twin_connections SET label = ${row.label}, status = ${row.status}, meta = ${row.meta},
        secret = ${row.secret === undefined ? sql`secret` : row.secret} WHERE id = ${row.id} AND being_id = ${row.beingId}`
    }))

    const remove = operation("twin.deleteConnection", SqlSchema.void({
      Request: Owned,
      execute: ({ id, beingId }) => sql`DELETE FROM twin_connections WHERE id = ${id} AND being_id = ${beingId}`
    }))

    /** Every sealed secret of a connection in use (connected, or pending its pairing), by being and provider. */
    const usableSecrets = operation("twin.connectionSecrets", SqlSchema.findAll({
      Request: Schema.Void,
      Result: Schema.Struct({ beingId: Schema.String, provider: Schema.String, secret: Schema.String }),
      execute: () => sql`SELECT being_id AS "beingId", provider, secret FROM twin_connections
        WHERE secret IS NOT NULL AND status IN ('connected', 'pending')`
    }))

    /** The sealed secret of the being's connection to `provider` while it is in use: what `usableSecrets` holds for it. */
    const usableSecret = operation("twin.connectionSecret", SqlSchema.findOne({
      Request: Schema.Struct({ beingId: Schema.String, provider: Schema.String }),
      Result: Schema.Struct({ secret: Schema.String }),
      execute: ({ beingId, provider }) => sql`SELECT secret FROM twin_connections
        WHERE being_id = ${beingId} AND provider = ${provider} AND secret IS NOT NULL AND status IN ('connected', 'pending')`
    }))

    /** A new sealed secret for the being's connection to the provider (a refreshed token), nothing else changed. */
    const replaceSecret = operation("twin.replaceConnectionSecret", SqlSchema.void({
      Request: Schema.Struct({ beingId: Schema.String, provider: Schema.String, secret: Schema.String }),
      execute: ({ beingId, provider, secret }) => sql`UPDATE twin_connections SET secret = ${secret} WHERE being_id = ${beingId} AND provider = ${provider}`
    }))

    return { find, findById, findDelivered, connectedTo, create, update, replaceSecret, remove, usableSecrets, usableSecret, list, startSync, finishSync, abandonRunning, count } as const
  })
}) {}
