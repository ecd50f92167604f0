/** The `twin_activity` table: what the twin did, per being, newest first. */
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { operation } from "../../../kernel/repository.ts"
import { beingCount } from "./count.ts"
import { TwinActivity, TwinActivityKind } from "../contract/records.ts"

const columns = `id, being_id AS "beingId", kind, summary, at`

export class ActivityRepository extends Effect.Service<ActivityRepository>()("twin/ActivityRepository", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const all = sql.literal(columns)

    const insert = operation(
      "twin.insertActivity",
      SqlSchema.void({
        Request: TwinActivity,
        execute: (activity) =>
          sql`INSERT INTO twin_activity ${sql.insert({
            id: activity.id,
            being_id: activity.beingId,
            kind: activity.kind,
            summary: activity.summary,
            at: activity.at
          })}`
      })
    )

    const list = operation(
      "twin.listActivity",
      SqlSchema.findAll({
        Request: Schema.Struct({
          beingId: Schema.String,
          kind: Schema.NullOr(TwinActivityKind),
          limit: Schema.Number,
          offset: Schema.Number
        }),
        Result: TwinActivity,
        execute: ({ beingId, kind, limit, offset }) => sql`SELECT ${all} FROM twin_activity
        WHERE being_id = ${beingId} ${kind === null ? sql`` : sql`AND kind = ${kind}`}
        ORDER BY at DESC, id LIMIT ${limit} OFFSET ${offset}`
      })
    )

    const count = beingCount(
      "twin.countActivity",
      (beingId) => sql`SELECT COUNT(*) AS total FROM twin_activity WHERE being_id = ${beingId}`
    )

    return { insert, list, count } as const
  })
}) {}
