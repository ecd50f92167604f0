/**
 * What the time feature needs from features it does not own: the desktop's signals, for a
 * calendar reminder. The host binds it (host/time/reminders.ts).
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { Unavailable } from "../../kernel/contract/errors.ts"
import type { CalendarEvent } from "./contract/calendar.ts"

export interface ReminderSignalsShape {
  /** Raises the event's reminder signal, held until `at` (ISO); answers its id. */
  readonly remind: (event: CalendarEvent, at: string) => Effect.Effect<string, Unavailable>
  /** Takes a reminder back: dismissed if still open, its release cancelled. */
  readonly withdraw: (beingId: string, signalId: string) => Effect.Effect<void>
}

export class ReminderSignals extends Context.Tag("time/ReminderSignals")<ReminderSignals, ReminderSignalsShape>() {}
