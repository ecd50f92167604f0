/**
 * Widget layouts, one per being. A PUT replaces the whole layout (the desktop always sends all
 * of it after a drag), so there is nothing to merge and nothing to serialise through the
 * being actor. A being that never stored one gets the default. Widget types are checked for
 * shape only: a plugin's widget may be uninstalled later and the desktop shows a placeholder.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import { nowIso } from "../../kernel/time.ts"
import type { Widget, WidgetLayout } from "./contract/records.ts"

/** What a new desktop shows: the summary of now, and the open signals under it. */
export const defaultLayout: WidgetLayout = {
  widgets: [
    { id: "now", type: "core.now", column: 0, order: 0 },
    { id: "signals", type: "core.signals", column: 0, order: 1 }
  ],
  updatedAt: null
}

export class Widgets extends Effect.Service<Widgets>()("host/Widgets", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const get = (beingId: string) =>
      sql<{ widgets: string; updatedAt: string }>`SELECT widgets, updated_at AS updatedAt FROM desktop_layouts
        WHERE being_id = ${beingId}`.pipe(
        Effect.map((rows): WidgetLayout =>
          rows[0] === undefined ? defaultLayout : { widgets: JSON.parse(rows[0].widgets), updatedAt: rows[0].updatedAt }
        )
      )

    const put = (beingId: string, widgets: ReadonlyArray<Widget>) =>
      Effect.gen(function* () {
        const now = yield* nowIso
        yield* sql`INSERT INTO desktop_layouts (being_id, widgets, updated_at) VALUES (${beingId}, ${JSON.stringify(widgets)}, ${now})
          ON CONFLICT (being_id) DO UPDATE SET widgets = excluded.widgets, updated_at = excluded.updated_at`
        return { widgets, updatedAt: now } satisfies WidgetLayout
      })

    return { get, put } as const
  })
}) {}
