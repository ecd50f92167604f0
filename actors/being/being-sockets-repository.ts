/**
 * The `being_sockets` table: one row per open socket. A being is online while it has a row.
 * Kept in the database rather than in the entity's memory so passivating an idle being (its
 * sockets open, no message for minutes) loses nothing.
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
      Request: Schema.Struct({ ...Socket.fields, now: Schema.String }),
      Result: Schema.Struct({ connectionId: Schema.String }),
      execute: ({ beingId, connectionId, now }) => sql`INSERT INTO being_sockets (connection_id, being_id, opened_at)
        VALUES (${connectionId}, ${beingId}, ${now}) ON CONFLICT DO NOTHING RETURNING connection_id AS "connectionId"`
    })

    const remove = SqlSchema.findAll({
      Request: Socket,
      Result: Schema.Struct({ connectionId: Schema.String }),
      execute: ({ beingId, connectionId }) => sql`DELETE FROM being_sockets WHERE connection_id = ${connectionId} AND being_id = ${beingId}
        RETURNING connection_id AS "connectionId"`
    })

    const onlineCount = SqlSchema.findOne({
      Request: Schema.Void,
      Result: Count,
      execute: () => sql`SELECT CAST(COUNT(DISTINCT being_id) AS INTEGER) AS n FROM being_sockets`
    })

    /** Records an open socket; true when it is the being's first (the being just came online). */
    const open = operation("presence.open", (beingId: string, connectionId: string, now: string) =>
      Effect.gen(function* () {
        const before = counted(yield* socketsOf(beingId))
        const added = yield* add({ beingId, connectionId, now })
        return before === 0 && added.length === 1
      }))

    /** Forgets a socket; true when it was the being's last (the being just went offline). */
    const close = operation("presence.close", (beingId: string, connectionId: string) =>
      Effect.gen(function* () {
        const removed = yield* remove({ beingId, connectionId })
        return removed.length === 1 && counted(yield* socketsOf(beingId)) === 0
      }))

    /** How many beings are online node-wide (for /api/health). */
    const onlineBeings = operation("presence.onlineBeings", () => Effect.map(onlineCount(undefined), counted))

    /** No socket survives the process that held it: at boot every row is stale. */
    const forgetAll = operation("presence.forgetAll", SqlSchema.void({ Request: Schema.Void, execute: () => sql`DELETE FROM being_sockets` }))

    return { open, close, onlineBeings: onlineBeings(), forgetAll: forgetAll(undefined) } as const
  })
}) {}
