/**
 * What the time feature needs from features it does not own: the desktop's signals, for a
 * calendar reminder (extensions/time/reminders.ts), and the being's time zone, for repeating events
 * (extensions/twin/profile-time-zone.ts).
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import type { Unavailable } from "../../kernel/contract/errors.ts"
import type { CalendarEvent } from "./contract/calendar.ts"

export interface ReminderSignalsShape {
  /** Raises the event's reminder signal, held until `at` (ISO); answers its id. */
  readonly remind: (event: CalendarEvent, at: string) => Effect.Effect<string, Unavailable>
  /** Takes a reminder back: dismissed if still open, its release cancelled. */
  readonly withdraw: (beingId: string, signalId: string) => Effect.Effect<void>
}

export class ReminderSignals extends Context.Tag("time/ReminderSignals")<ReminderSignals, ReminderSignalsShape>() {}

export interface EventTimeZoneShape {
  /** The IANA time zone a being's repeating events keep their local time in. */
  readonly of: (beingId: string) => Effect.Effect<string>
}

/** The being's time zone (its twin profile's, bound by the host); UTC where nothing binds it. */
export class EventTimeZone extends Context.Reference<EventTimeZone>()("time/EventTimeZone", {
  defaultValue: (): EventTimeZoneShape => ({ of: () => Effect.succeed("UTC") })
}) {}
