/**
 * What the time feature needs from features it does not own: the desktop's signals, for a
 * calendar reminder (extensions/time/reminders.ts), and the being's time zone, for repeating events
 * (extensions/twin/profile-time-zone.ts; its tag in contract/ports.ts).
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { ActorBusy } from "../../kernel/contract/actor-errors.ts"
import type { Unavailable } from "../../kernel/contract/errors.ts"
import type { CalendarEvent } from "./contract/calendar.ts"

export interface ReminderSignalsShape {
  /** Raises the event's reminder signal, held until `at` (ISO); answers its id. */
  readonly remind: (event: CalendarEvent, at: string) => Effect.Effect<string, Unavailable | ActorBusy>
  /** Takes a reminder back: dismissed if still open, its release cancelled. */
  readonly withdraw: (beingId: string, signalId: string) => Effect.Effect<void>
}

export class ReminderSignals extends Context.Tag("time/ReminderSignals")<ReminderSignals, ReminderSignalsShape>() {}

export { EventTimeZone, type EventTimeZoneShape } from "./contract/ports.ts"
