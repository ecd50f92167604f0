/** The being's events: its desktop's signals, and who is online. */
import * as Schema from "effect/Schema"
import { event } from "../../../kernel/contract/events.ts"
import { Signal } from "./signal.ts"

export const SignalCreated = event("signal.created", { signal: Signal })
export const SignalUpdated = event("signal.updated", { signal: Signal })
export const PresenceUpdate = event("presence.update", {
  beingId: Schema.String,
  status: Schema.Literal("online", "offline"),
  doing: Schema.optional(Schema.String)
})

declare module "../../../kernel/contract/events.ts" {
  interface BusEvents {
    "signal.created": typeof SignalCreated.Type
    "signal.updated": typeof SignalUpdated.Type
    "presence.update": typeof PresenceUpdate.Type
  }
}
