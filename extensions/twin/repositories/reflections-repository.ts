/** The `twin_reflections` table: how far each being's reflection has read its memories. */
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { operation } from "../../../kernel/repository.ts"

const Due = Schema.Struct({ beingId: Schema.String, fresh: Schema.Number })

export class ReflectionsRepository extends Effect.Service<ReflectionsRepository>()("twin/ReflectionsRepository", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const findLastSeq = SqlSchema.findOne({
      Request: Schema.String,
      Result: Schema.Struct({ lastSeq: Schema.Number }),
      execute: (beingId) => sql`SELECT last_seq AS "lastSeq" FROM twin_reflections WHERE being_id = ${beingId}`
    })
    /** The rowid of the last memory the being's reflection read; 0 before its first pass. */
    const lastSeq = operation("twin.reflectionLastSeq", (beingId: string) =>
      Effect.map(findLastSeq(beingId), Option.match({ onNone: () => 0, onSome: (row) => row.lastSeq }))
    )

    const save = operation(
      "twin.saveReflection",
      SqlSchema.void({
        Request: Schema.Struct({ beingId: Schema.String, lastSeq: Schema.Number, at: Schema.String }),
        execute: ({ beingId, lastSeq, at }) => sql`INSERT INTO twin_reflections (being_id, last_seq, reflected_at)
        VALUES (${beingId}, ${lastSeq}, ${at})
        ON CONFLICT (being_id) DO UPDATE SET last_seq = excluded.last_seq, reflected_at = excluded.reflected_at`
      })
    )

    /** The beings with at least `least` memories their reflection has not read. */
    const due = operation(
      "twin.reflectionsDue",
      SqlSchema.findAll({
        Request: Schema.Number,
        Result: Due,
        execute: (least) => sql`SELECT m.being_id AS "beingId", COUNT(*) AS fresh FROM twin_memories m
        LEFT JOIN twin_reflections r ON r.being_id = m.being_id
        WHERE m.seq > COALESCE(r.last_seq, 0)
        GROUP BY m.being_id HAVING COUNT(*) >= ${least}`
      })
    )

    return { lastSeq, save, due } as const
  })
}) {}
