/** The `node_meta` table: the node's own values that outlive a restart (the generated cookie key). */
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { operation } from "../../../kernel/repository.ts"

const Entry = Schema.Struct({ key: Schema.String, value: Schema.String })

export class NodeMetaRepository extends Effect.Service<NodeMetaRepository>()("auth/NodeMetaRepository", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const insertIfAbsent = SqlSchema.void({
      Request: Entry,
      execute: ({ key, value }) =>
        sql`INSERT INTO node_meta (key, value) VALUES (${key}, ${value}) ON CONFLICT DO NOTHING`
    })

    const storedValue = SqlSchema.single({
      Request: Schema.String,
      Result: Schema.Struct({ value: Schema.String }),
      execute: (key) => sql`SELECT value FROM node_meta WHERE key = ${key}`
    })

    /**
     * The value kept under `key`, storing `value` first if there is none: of two processes that
     * start at once on one database, both answer the first one stored.
     */
    const keep = operation("auth.keepNodeValue", (entry: typeof Entry.Type) =>
      insertIfAbsent(entry).pipe(
        Effect.zipRight(storedValue(entry.key)),
        Effect.map((row) => row.value),
        // The row was just written or already there: its absence is the node's fault.
        Effect.catchTag("NoSuchElementException", Effect.die)
      )
    )

    return { keep } as const
  })
}) {}
