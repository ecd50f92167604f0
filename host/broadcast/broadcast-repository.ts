/**
 * The statements of the cross-process channel (broadcast.ts): NOTIFY itself, through
 * `pg_notify` (PostgreSQL only; @effect/sql-pg 0.53's own `notify` sends `NOTIFY chan, $1`,
 * which PostgreSQL refuses: it takes no parameter there), and the `broadcast_overflow` table: a cross-process message
 * larger than PostgreSQL's NOTIFY payload
 * limit is written here and only its id is notified (broadcast.ts). Rows are read by every other
 * process, so none is deleted on reading; the sender sweeps rows older than a minute.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { operation } from "../../kernel/repository.ts"

const Row = Schema.Struct({ id: Schema.String, payload: Schema.String, createdAt: Schema.String })

export class BroadcastRepository extends Effect.Service<BroadcastRepository>()("broadcast/BroadcastRepository", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const insert = operation(
      "broadcast.insertOverflow",
      SqlSchema.void({
        Request: Row,
        execute: ({ id, payload, createdAt }) =>
          sql`INSERT INTO broadcast_overflow (id, payload, created_at) VALUES (${id}, ${payload}, ${createdAt})`
      })
    )

    /** The payload kept under `id`; none once swept. */
    const find = operation(
      "broadcast.findOverflow",
      SqlSchema.findOne({
        Request: Schema.String,
        Result: Schema.Struct({ payload: Schema.String }),
        execute: (id) => sql`SELECT payload FROM broadcast_overflow WHERE id = ${id}`
      })
    )

    /** Drops rows written before `before`: every listener has read them by then. */
    const sweep = operation(
      "broadcast.sweepOverflow",
      SqlSchema.void({
        Request: Schema.String,
        execute: (before) => sql`DELETE FROM broadcast_overflow WHERE created_at < ${before}`
      })
    )

    /** PostgreSQL only: tells every session LISTENing on `channel`, once the statement commits. */
    const notify = operation(
      "broadcast.notify",
      SqlSchema.void({
        Request: Schema.Struct({ channel: Schema.String, payload: Schema.String }),
        execute: ({ channel, payload }) => sql`SELECT pg_notify(${channel}, ${payload})`
      })
    )

    return { notify, insert, find, sweep } as const
  })
}) {}
