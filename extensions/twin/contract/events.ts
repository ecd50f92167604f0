/** The twin's events, to its being: a memory written, a widget reflection suggests, an activity. */
import * as Schema from "effect/Schema"
import { event } from "../../../kernel/contract/events.ts"
import { Memory } from "../../../kernel/contract/memory.ts"
import { TwinActivityEvent } from "./records.ts"

export const MemoryCreated = event("memory.created", { memory: Memory })
export const WidgetSuggest = event("widget.suggest", {
  widgetType: Schema.String,
  reason: Schema.String,
  config: Schema.optional(Schema.Unknown)
})
export const TwinActivity = event("twin.activity", TwinActivityEvent.fields)

declare module "../../../kernel/contract/events.ts" {
  interface BusEvents {
    "memory.created": typeof MemoryCreated.Type
    "widget.suggest": typeof WidgetSuggest.Type
    "twin.activity": typeof TwinActivity.Type
  }
}
