/**
 * Widget layouts, one per being. A PUT replaces the whole layout (the desktop always sends all
 * of it after a drag), so there is nothing to merge and nothing to serialise through the
 * being actor. A being that never stored one gets the default. Widget types are checked for
 * shape only: a plugin's widget may be uninstalled later and the desktop shows a placeholder.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { nowIso } from "../../kernel/time.ts"
import type { Widget, WidgetLayout } from "./contract/records.ts"
import { LayoutsRepository } from "./layouts-repository.ts"
import { fnNamed, spanNamed } from "../../kernel/spans.ts"

/** What a new desktop shows: the summary of now, and the open signals under it. */
export const defaultLayout: WidgetLayout = {
  widgets: [
    { id: "now", type: "core.now", column: 0, order: 0 },
    { id: "signals", type: "core.signals", column: 0, order: 1 }
  ],
  updatedAt: null
}

export class Widgets extends Effect.Service<Widgets>()("desktop/Widgets", {
  effect: Effect.gen(function* () {
    const layouts = yield* LayoutsRepository

    const get = (beingId: string) =>
      Effect.map(
        layouts.find(beingId),
        Option.getOrElse((): WidgetLayout => defaultLayout)
      ).pipe(spanNamed("desktop.getWidgets"))

    const put = fnNamed("desktop.putWidgets")(function* (beingId: string, widgets: ReadonlyArray<Widget>) {
      const updatedAt = yield* nowIso
      yield* layouts.save({ beingId, widgets, updatedAt })
      return { widgets, updatedAt } satisfies WidgetLayout
    })

    return { get, put } as const
  }),
  dependencies: [LayoutsRepository.Default]
}) {}
