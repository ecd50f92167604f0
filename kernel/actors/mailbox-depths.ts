/**
 * The actors' mailboxes for the node's metrics: per actor kind, the requests persisted for its entities and not
 * processed yet (the cluster's `cluster_messages`, shared by every runner, so the figure is the cluster's). Read at
 * each scrape; a message sent without persistence never reaches the table and is not counted.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { NodeMetrics } from "../metrics.ts"

/** @effect/cluster's kind of a request message (its `messageKind.Request`); acks and interrupts are not mail. */
const requestKind = 0

/** Each actor kind with unprocessed requests, and how many (SQLite and PostgreSQL alike). */
export const mailboxDepths = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql<{ readonly entity_type: string; readonly depth: number | string }>`
    SELECT entity_type, count(*) AS depth FROM cluster_messages
    WHERE NOT processed AND kind = ${requestKind} GROUP BY entity_type`.pipe(
    Effect.map((rows) => rows.map((row) => ({ kind: row.entity_type, depth: Number(row.depth) })))
  )
)

export const mailboxDepthsLayer = Layer.effectDiscard(
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const metrics = yield* NodeMetrics
    metrics.gauge(
      {
        name: "pos_actor_mailbox_depth",
        help: "Messages persisted for an actor kind's entities and not yet processed.",
        labelNames: ["kind"]
      },
      (gauge) =>
        mailboxDepths.pipe(
          Effect.tap((depths) => {
            gauge.reset()
            for (const { kind, depth } of depths) gauge.set({ kind }, depth)
          }),
          Effect.asVoid,
          // A scrape while the database is out of reach still answers every other figure.
          Effect.catchAll((error) => Effect.logWarning("The actors' mailbox depths could not be read", error)),
          Effect.provideService(SqlClient.SqlClient, sql)
        )
    )
  })
)
