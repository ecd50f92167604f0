/** The `desktop_layouts` table: each being's widget layout, stored whole as JSON. */
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { JsonColumn, operation } from "../../kernel/repository.ts"
import { Widget } from "./contract/records.ts"

const StoredLayout = Schema.Struct({ widgets: JsonColumn(Schema.Array(Widget)), updatedAt: Schema.String })

export class LayoutsRepository extends Effect.Service<LayoutsRepository>()("desktop/LayoutsRepository", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const find = operation(
      "desktop.findLayout",
      SqlSchema.findOne({
        Request: Schema.String,
        Result: StoredLayout,
        execute: (beingId) =>
          sql`SELECT widgets, updated_at AS "updatedAt" FROM desktop_layouts WHERE being_id = ${beingId}`
      })
    )

    /** Replaces the being's layout, or stores its first. */
    const save = operation(
      "desktop.saveLayout",
      SqlSchema.void({
        Request: Schema.Struct({ beingId: Schema.String, ...StoredLayout.fields }),
        execute: ({ beingId, widgets, updatedAt }) =>
          sql`INSERT INTO desktop_layouts (being_id, widgets, updated_at) VALUES (${beingId}, ${widgets}, ${updatedAt})
          ON CONFLICT (being_id) DO UPDATE SET widgets = excluded.widgets, updated_at = excluded.updated_at`
      })
    )

    return { find, save } as const
  })
}) {}
