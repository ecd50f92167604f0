/**
 * The `being_sockets` table: one row per open socket, naming the process that holds it. A being
 * is online while it has a row. Kept in the database rather than in the entity's memory so
 * passivating an idle being (its sockets open, no message for minutes) loses nothing. Beside it,
 * `presence_leases`: each process renews its lease while it runs; the rows of a process whose
 * lease lapsed (killed, restarted) are swept by any process (presence-lease.ts).
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { operation } from "../../kernel/repository.ts"

const Count = Schema.Struct({ n: Schema.Int })
/** An aggregate answers one row; none (which cannot happen) reads as none counted. */
const counted = Option.match({ onNone: () => 0, onSome: ({ n }: typeof Count.Type) => n })

const Socket = Schema.Struct({ beingId: Schema.String, connectionId: Schema.String })
const BeingRow = Schema.Struct({ beingId: Schema.String })
const Lease = Schema.Struct({ processId: Schema.String, aliveUntil: Schema.String })

export class BeingSocketsRepository extends Effect.Service<BeingSocketsRepository>()("being/BeingSocketsRepository", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const socketsOf = SqlSchema.findOne({
      Request: Schema.String,
      Result: Count,
      execute: (beingId) => sql`SELECT CAST(COUNT(*) AS INTEGER) AS n FROM being_sockets WHERE being_id = ${beingId}`
    })

    /** Records a socket; true when it is new (a redelivered open is not). */
    const add = SqlSchema.findAll({
      Request: Schema.Struct({ ...Socket.fields, processId: Schema.String, now: Schema.String }),
      Result: Schema.Struct({ connectionId: Schema.String }),
      execute: ({
        beingId,
        connectionId,
        processId,
        now
      }) => sql`INSERT INTO being_sockets (connection_id, being_id, process_id, opened_at)
        VALUES (${connectionId}, ${beingId}, ${processId}, ${now}) ON CONFLICT DO NOTHING RETURNING connection_id AS "connectionId"`
    })

    const remove = SqlSchema.findAll({
      Request: Socket,
      Result: Schema.Struct({ connectionId: Schema.String }),
      execute: ({
        beingId,
        connectionId
      }) => sql`DELETE FROM being_sockets WHERE connection_id = ${connectionId} AND being_id = ${beingId}
        RETURNING connection_id AS "connectionId"`
    })

    const onlineCount = SqlSchema.findOne({
      Request: Schema.Void,
      Result: Count,
      execute: () => sql`SELECT CAST(COUNT(DISTINCT being_id) AS INTEGER) AS n FROM being_sockets`
    })

    /** Records an open socket; true when it is the being's first (the being just came online). */
    const open = operation("presence.open", (beingId: string, connectionId: string, processId: string, now: string) =>
      Effect.gen(function* () {
        const before = counted(yield* socketsOf(beingId))
        const added = yield* add({ beingId, connectionId, processId, now })
        return before === 0 && added.length === 1
      })
    )

    /** Forgets a socket; true when it was the being's last (the being just went offline). */
    const close = operation("presence.close", (beingId: string, connectionId: string) =>
      Effect.gen(function* () {
        const removed = yield* remove({ beingId, connectionId })
        return removed.length === 1 && counted(yield* socketsOf(beingId)) === 0
      })
    )

    /** The beings with a socket open on any process of the node: who reads as online. */
    const onlineIds = operation("presence.onlineIds", () =>
      Effect.map(
        SqlSchema.findAll({
          Request: Schema.Void,
          Result: Schema.Struct({ beingId: Schema.String }),
          execute: () => sql`SELECT DISTINCT being_id AS "beingId" FROM being_sockets`
        })(undefined),
        (rows) => new Set(rows.map((row) => row.beingId))
      )
    )

    /** Whether the being has a socket open on any process of the node. */
    const isOnline = operation("presence.isOnline", (beingId: string) =>
      Effect.map(socketsOf(beingId), (n) => counted(n) > 0)
    )

    /** How many sockets the being has open on every process of the node (the live channel's bound). */
    const socketCount = operation("presence.socketCount", (beingId: string) => Effect.map(socketsOf(beingId), counted))

    /** How many beings are online node-wide (for /api/health). */
    const onlineBeings = operation("presence.onlineBeings", () => Effect.map(onlineCount(undefined), counted))

    const upsertLease = SqlSchema.void({
      Request: Lease,
      execute: ({
        processId,
        aliveUntil
      }) => sql`INSERT INTO presence_leases (process_id, alive_until) VALUES (${processId}, ${aliveUntil})
        ON CONFLICT (process_id) DO UPDATE SET alive_until = excluded.alive_until`
    })

    const extendLease = SqlSchema.findAll({
      Request: Schema.Struct({ ...Lease.fields, now: Schema.String }),
      Result: Schema.Struct({ processId: Schema.String }),
      execute: ({ processId, aliveUntil, now }) => sql`UPDATE presence_leases SET alive_until = ${aliveUntil}
        WHERE process_id = ${processId} AND alive_until > ${now} RETURNING process_id AS "processId"`
    })

    /**
     * Keeps this process's sockets counted until `aliveUntil`; false when the lease was not held
     * (the first renewal, or one after a lapse: another process may have swept the rows meanwhile).
     */
    const renewLease = operation("presence.renewLease", (processId: string, aliveUntil: string, now: string) =>
      Effect.gen(function* () {
        if ((yield* extendLease({ processId, aliveUntil, now })).length === 1) return true
        yield* upsertLease({ processId, aliveUntil })
        return false
      })
    )

    /** A process stopping in order gives its lease up: its rows go at the next sweep. */
    const endLease = operation(
      "presence.endLease",
      SqlSchema.void({
        Request: Schema.String,
        execute: (processId) => sql`DELETE FROM presence_leases WHERE process_id = ${processId}`
      })
    )

    /** Alone on the database (SQLite): every other process is gone, whatever its lease says. */
    const endOtherLeases = operation(
      "presence.endOtherLeases",
      SqlSchema.void({
        Request: Schema.String,
        execute: (processId) => sql`DELETE FROM presence_leases WHERE process_id <> ${processId}`
      })
    )

    const deleteLapsedSockets = SqlSchema.findAll({
      Request: Schema.String,
      Result: BeingRow,
      execute: (now) => sql`DELETE FROM being_sockets WHERE process_id IS NULL
        OR process_id NOT IN (SELECT process_id FROM presence_leases WHERE alive_until > ${now})
        RETURNING being_id AS "beingId"`
    })
    const deleteLapsedLeases = SqlSchema.void({
      Request: Schema.String,
      execute: (now) => sql`DELETE FROM presence_leases WHERE alive_until <= ${now}`
    })

    /**
     * Forgets the sockets of processes whose lease lapsed; answers the beings that went offline by
     * it (each once: of two processes sweeping, only the one whose DELETE took a row names it).
     */
    const sweep = operation("presence.sweep", (now: string) =>
      Effect.gen(function* () {
        const removed = yield* deleteLapsedSockets(now)
        yield* deleteLapsedLeases(now)
        const beings = [...new Set(removed.map((row) => row.beingId))]
        const offline: Array<string> = []
        for (const beingId of beings) if (counted(yield* socketsOf(beingId)) === 0) offline.push(beingId)
        return offline
      })
    )

    return {
      open,
      close,
      isOnline,
      socketCount,
      onlineIds: onlineIds(),
      onlineBeings: onlineBeings(),
      renewLease,
      endLease,
      endOtherLeases,
      sweep
    } as const
  })
}) {}
