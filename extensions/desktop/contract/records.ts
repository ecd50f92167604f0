/**
 * The desktop's records that the spec leaves "not shown": the widget layout and NowResponse,
 * and the query and body shapes of the signal routes. Limits are decided here and listed in
 * docs/api.md. Plain schemas only: the web app imports them through the HTTP contract.
 */
import * as Schema from "effect/Schema"
import { Signal, SignalStatus } from "../../../actors/being/contract/signal.ts"
import { PageOffset } from "../../../kernel/contract/page.ts"

export const WIDGET_COLUMNS = 3
export const MAX_WIDGETS = 24
export const WIDGET_CONFIG_MAX_BYTES = 4096

const WidgetConfig = Schema.Record({ key: Schema.String, value: Schema.Unknown }).pipe(
  Schema.filter((config) => {
    const json = JSON.stringify(config)
    return (
      (json !== undefined && new TextEncoder().encode(json).length <= WIDGET_CONFIG_MAX_BYTES) ||
      `a config of at most ${WIDGET_CONFIG_MAX_BYTES} bytes of JSON`
    )
  })
)

export const Widget = Schema.Struct({
  /** The placement's own id, unique in the layout (one widget type may be placed twice). */
  id: Schema.String.pipe(
    Schema.pattern(/^[A-Za-z0-9_-]{1,40}$/, { message: () => "a widget id of 1 to 40 letters, digits, _ or -" })
  ),
  /** The widget contribution's full name, `<namespace>.<id>`; `core.*` are the desktop's own. */
  type: Schema.String.pipe(
    Schema.pattern(/^[a-z][a-z0-9_-]{0,39}\.[a-z][a-z0-9_-]{0,63}$/, {
      message: () => "a widget type such as core.signals"
    })
  ),
  column: Schema.Int.pipe(Schema.between(0, WIDGET_COLUMNS - 1)),
  order: Schema.Int.pipe(Schema.between(0, 999)),
  config: Schema.optional(WidgetConfig)
})
export type Widget = typeof Widget.Type

export const WidgetLayoutRequest = Schema.Struct({
  widgets: Schema.Array(Widget).pipe(
    Schema.maxItems(MAX_WIDGETS),
    Schema.filter(
      (widgets) => new Set(widgets.map((widget) => widget.id)).size === widgets.length || "widgets with distinct ids"
    )
  )
})

export const WidgetLayout = Schema.Struct({
  widgets: Schema.Array(Widget),
  /** When the being last stored a layout; null while it is the default. */
  updatedAt: Schema.NullOr(Schema.String)
})
export type WidgetLayout = typeof WidgetLayout.Type

export const SignalListParams = Schema.Struct({
  status: Schema.optionalWith(SignalStatus, { default: () => "open" }),
  limit: Schema.optionalWith(Schema.NumberFromString.pipe(Schema.int(), Schema.between(1, 200)), {
    default: () => 100
  }),
  offset: Schema.optionalWith(PageOffset, { default: () => 0 })
})

export const AnswerRequest = Schema.Struct({
  optionId: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(40))
})

const knownTimeZone = (value: string) => {
  try {
    new Intl.DateTimeFormat("en", { timeZone: value })
    return true
  } catch {
    return "an IANA time zone such as Europe/Paris"
  }
}

export const NowParams = Schema.Struct({
  /** The viewer's time zone (the browser knows it); the node's own when absent. */
  tz: Schema.optional(Schema.String.pipe(Schema.maxLength(64), Schema.filter(knownTimeZone)))
})

export const NowResponse = Schema.Struct({
  serverTime: Schema.String,
  timeZone: Schema.String,
  greeting: Schema.String,
  being: Schema.Struct({ id: Schema.String, displayName: Schema.String }),
  openSignals: Schema.Struct({
    count: Schema.Int,
    /** The most pressing open signals: by priority, then newest. */
    top: Schema.Array(Signal)
  }),
  /** Proactive nudges the hush gate holds right now (quiet hours, a snooze): not on the desktop yet. */
  heldNudges: Schema.Int
})
export type NowResponse = typeof NowResponse.Type
