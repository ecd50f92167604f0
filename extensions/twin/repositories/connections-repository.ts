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
  syncDetail: JsonColumn(Meta),
  /** The process running the sync, and until when its lease holds (renewed while it runs). */
  syncClaimer: Schema.NullOr(Schema.String),
  syncLeaseUntil: Schema.NullOr(Schema.String)
})
export type TwinConnection = typeof TwinConnection.Type

const columns = `id, being_id AS "beingId", provider, label, status, meta, last_sync_at AS "lastSyncAt", created_at AS "createdAt",
  sync_status AS "syncStatus", sync_started_at AS "syncStartedAt", sync_finished_at AS "syncFinishedAt",
  sync_error AS "syncError", sync_detail AS "syncDetail", sync_claimer AS "syncClaimer", sync_lease_until AS "syncLeaseUntil"`

const Finish = Schema.Struct({
  id: Schema.String,
  claimer: Schema.String,
  status: Schema.Literal("done", "error"),
  at: Schema.String,
  error: Schema.NullOr(Schema.String),
  detail: JsonColumn(Meta)
})

/** The columns every new row names, from its encoded fields (meta is already JSON text there). */
const connectionColumns = (row: {
  readonly id: string
  readonly beingId: string
  readonly provider: string
  readonly label: string
  readonly status: string
  readonly meta: unknown
}) => ({
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

    const find = operation(
      "twin.findConnection",
      SqlSchema.findOne({
        Request: Schema.Struct({ beingId: Schema.String, provider: Schema.String }),
        Result: TwinConnection,
        execute: ({ beingId, provider }) =>
          sql`SELECT ${all} FROM twin_connections WHERE being_id = ${beingId} AND provider = ${provider}`
      })
    )

    const list = operation(
      "twin.listConnections",
      SqlSchema.findAll({
        Request: Schema.String,
        Result: TwinConnection,
        execute: (beingId) => sql`SELECT ${all} FROM twin_connections WHERE being_id = ${beingId} ORDER BY provider`
      })
    )

    /** Every being's connected connection to the provider: what the provider's cadence syncs. */
    const connectedTo = operation(
      "twin.connectedTo",
      SqlSchema.findAll({
        Request: Schema.String,
        Result: TwinConnection,
        execute: (provider) =>
          sql`SELECT ${all} FROM twin_connections WHERE provider = ${provider} AND status = 'connected' ORDER BY id`
      })
    )

    /** A connection by its id and provider, whoever's it is: what a webhook delivery names. */
    const findDelivered = operation(
      "twin.findDeliveredConnection",
      SqlSchema.findOne({
        Request: Schema.Struct({ id: Schema.String, provider: Schema.String }),
        Result: TwinConnection,
        execute: ({ id, provider }) =>
          sql`SELECT ${all} FROM twin_connections WHERE id = ${id} AND provider = ${provider}`
      })
    )

    /**
     * Connects (or reconnects) the being to the provider and claims its sync for `row.syncClaimer`
     * until `row.syncLeaseUntil`; the row keeps its id and creation. None when a sync of it runs
     * already under a lease that still holds (on this process or another): one sync per connection.
     */
    const startSync = operation(
      "twin.startSync",
      SqlSchema.findOne({
        Request: TwinConnection,
        Result: Schema.Struct({ id: Schema.String }),
        execute: (row) => sql`INSERT INTO twin_connections ${sql.insert({
          ...connectionColumns(row),
          last_sync_at: row.lastSyncAt,
          created_at: row.createdAt,
          sync_status: row.syncStatus,
          sync_started_at: row.syncStartedAt,
          sync_finished_at: row.syncFinishedAt,
          sync_error: row.syncError,
          sync_detail: row.syncDetail,
          sync_claimer: row.syncClaimer,
          sync_lease_until: row.syncLeaseUntil
        })} ON CONFLICT (being_id, provider) DO UPDATE SET label = excluded.label, status = excluded.status, meta = excluded.meta,
        sync_status = excluded.sync_status, sync_started_at = excluded.sync_started_at, sync_finished_at = NULL,
        sync_error = NULL, sync_detail = excluded.sync_detail, sync_claimer = excluded.sync_claimer,
        sync_lease_until = excluded.sync_lease_until
      WHERE twin_connections.sync_status <> 'running' OR twin_connections.sync_lease_until IS NULL
        OR twin_connections.sync_lease_until < ${row.syncStartedAt}
      RETURNING id`
      })
    )

    /** The running sync's lease, held on while its pass runs; nothing when another process took the sync over. */
    const holdSync = operation(
      "twin.holdSync",
      SqlSchema.void({
        Request: Schema.Struct({ id: Schema.String, claimer: Schema.String, until: Schema.String }),
        execute: ({ id, claimer, until }) => sql`UPDATE twin_connections SET sync_lease_until = ${until}
        WHERE id = ${id} AND sync_claimer = ${claimer} AND sync_status = 'running'`
      })
    )

    /**
     * A finished sync: done (and so the connection's lastSyncAt) or failed, with its counts; only
     * while its claimer still holds it (a sync another process took over after the lease lapsed is that one's to
     * finish).
     */
    const finishSync = operation(
      "twin.finishSync",
      SqlSchema.void({
        Request: Finish,
        execute: ({
          id,
          claimer,
          status,
          at,
          error,
          detail
        }) => sql`UPDATE twin_connections SET sync_status = ${status},
        sync_finished_at = ${at}, sync_error = ${error}, sync_detail = ${detail}, sync_claimer = NULL, sync_lease_until = NULL,
        last_sync_at = ${status === "done" ? at : sql`last_sync_at`} WHERE id = ${id} AND sync_claimer = ${claimer}`
      })
    )

    /**
     * Syncs a stopped process was in the middle of did not finish: said so instead of running
     * forever. On SQLite one process owns the database file, so at its start every running sync is
     * its previous life's; on PostgreSQL other processes of a cluster run theirs meanwhile, so only
     * syncs whose lease lapsed (their process stopped renewing it) are abandoned.
     */
    const abandonRunning = operation(
      "twin.abandonSyncs",
      SqlSchema.void({
        Request: Schema.Struct({ at: Schema.String, error: Schema.String }),
        execute: ({ at, error }) => {
          const abandon = sql`UPDATE twin_connections SET sync_status = 'error', sync_finished_at = ${at}, sync_error = ${error},
          sync_claimer = NULL, sync_lease_until = NULL WHERE sync_status = 'running'`
          return sql.onDialectOrElse({
            sqlite: () => abandon,
            orElse: () => sql`${abandon} AND (sync_lease_until IS NULL OR sync_lease_until < ${at})`
          })
        }
      })
    )

    const count = beingCount(
      "twin.countConnections",
      (beingId) =>
        sql`SELECT COUNT(*) AS total FROM twin_connections WHERE being_id = ${beingId} AND status = 'connected'`
    )

    const findById = operation(
      "twin.findConnectionById",
      SqlSchema.findOne({
        Request: Owned,
        Result: TwinConnection,
        execute: ({ id, beingId }) =>
          sql`SELECT ${all} FROM twin_connections WHERE id = ${id} AND being_id = ${beingId}`
      })
    )

    /** A new connection; false when the being already has one to that provider (one per provider). */
    const create = operation("twin.createConnection", (row: typeof Created.Type) =>
      SqlSchema.findOne({
        Request: Created,
        Result: Schema.Struct({ id: Schema.String }),
        execute: (row) =>
          sql`INSERT INTO twin_connections ${sql.insert({
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

    const update = operation(
      "twin.updateConnection",
      SqlSchema.void({
        Request: Changed,
        execute: (
          row
        ) => sql`UPDATE twin_connections SET label = ${row.label}, status = ${row.status}, meta = ${row.meta},
        secret = ${row.secret === undefined ? sql`secret` : row.secret} WHERE id = ${row.id} AND being_id = ${row.beingId}`
      })
    )

    const remove = operation(
      "twin.deleteConnection",
      SqlSchema.void({
        Request: Owned,
        execute: ({ id, beingId }) => sql`DELETE FROM twin_connections WHERE id = ${id} AND being_id = ${beingId}`
      })
    )

    /** Every sealed secret of a connection in use (connected, or pending its pairing), by being and provider. */
    const usableSecrets = operation(
      "twin.connectionSecrets",
      SqlSchema.findAll({
        Request: Schema.Void,
        Result: Schema.Struct({ beingId: Schema.String, provider: Schema.String, secret: Schema.String }),
        execute: () => sql`SELECT being_id AS "beingId", provider, secret FROM twin_connections
        WHERE secret IS NOT NULL AND status IN ('connected', 'pending')`
      })
    )

    /**
     * The sealed secret of the being's connection to `provider` while it is in use: what `usableSecrets` holds for it.
     */
    const usableSecret = operation(
      "twin.connectionSecret",
      SqlSchema.findOne({
        Request: Schema.Struct({ beingId: Schema.String, provider: Schema.String }),
        Result: Schema.Struct({ secret: Schema.String }),
        execute: ({ beingId, provider }) => sql`SELECT secret FROM twin_connections
        WHERE being_id = ${beingId} AND provider = ${provider} AND secret IS NOT NULL AND status IN ('connected', 'pending')`
      })
    )

    /** A new sealed secret for the being's connection to the provider (a refreshed token), nothing else changed. */
    const replaceSecret = operation(
      "twin.replaceConnectionSecret",
      SqlSchema.void({
        Request: Schema.Struct({ beingId: Schema.String, provider: Schema.String, secret: Schema.String }),
        execute: ({ beingId, provider, secret }) =>
          sql`UPDATE twin_connections SET secret = ${secret} WHERE being_id = ${beingId} AND provider = ${provider}`
      })
    )

    /**
     * Claims the renewal of the connection's tokens for `claimer` until `until`: one renewal per
     * connection across processes, so one refresh token is never spent twice. False while another
     * claim holds (its time not passed).
     */
    const claimRenewal = operation(
      "twin.claimTokenRenewal",
      (claim: {
        readonly beingId: string
        readonly provider: string
        readonly claimer: string
        readonly now: string
        readonly until: string
      }) =>
        SqlSchema.findAll({
          Request: Schema.Struct({
            beingId: Schema.String,
            provider: Schema.String,
            claimer: Schema.String,
            now: Schema.String,
            until: Schema.String
          }),
          Result: Schema.Struct({ id: Schema.String }),
          execute: ({
            beingId,
            provider,
            claimer,
            now,
            until
          }) => sql`UPDATE twin_connections SET renew_claimer = ${claimer}, renew_until = ${until}
          WHERE being_id = ${beingId} AND provider = ${provider} AND (renew_claimer IS NULL OR renew_until IS NULL OR renew_until < ${now})
          RETURNING id`
        })(claim).pipe(Effect.map((rows) => rows.length === 1))
    )

    /**
     * The renewal's end: its new sealed secret written (when it got one) and the claim let go, only by the claimer
     * holding it.
     */
    const endRenewal = operation(
      "twin.endTokenRenewal",
      SqlSchema.void({
        Request: Schema.Struct({
          beingId: Schema.String,
          provider: Schema.String,
          claimer: Schema.String,
          secret: Schema.NullOr(Schema.String)
        }),
        execute: ({
          beingId,
          provider,
          claimer,
          secret
        }) => sql`UPDATE twin_connections SET renew_claimer = NULL, renew_until = NULL,
        secret = ${secret === null ? sql`secret` : secret} WHERE being_id = ${beingId} AND provider = ${provider} AND renew_claimer = ${claimer}`
      })
    )

    return {
      claimRenewal,
      endRenewal,
      find,
      findById,
      findDelivered,
      connectedTo,
      create,
      update,
      replaceSecret,
      remove,
      usableSecrets,
      usableSecret,
      list,
      startSync,
      holdSync,
      finishSync,
      abandonRunning,
      count
    } as const
  })
}) {}
