/**
 * A being's calendar: events, once or repeating (recurrence.ts), and each one's occurrences in a
 * range for the agenda. `remind: true` puts a reminder signal on the desktop, held until the
 * event starts (its next occurrence when it repeats) and released then by the scheduler; moving
 * the event moves the reminder, deleting it takes the reminder back. Another being's event
 * answers exactly as a missing one does.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { nowIso, nowMillis } from "../../kernel/time.ts"
import { CalendarEventsRepository } from "./calendar-events-repository.ts"
import type { AgendaEntry, CalendarEvent, CreateEvent, PatchEvent } from "./contract/calendar.ts"
import { EventEndsBeforeStart, EventNotFound, InvalidRecurrence } from "./contract/errors.ts"
import { EventTimeZone, ReminderSignals } from "./ports.ts"
import { nextOccurrence, occurrencesBetween, recurrenceProblem } from "./recurrence.ts"
import { newId } from "./todos.ts"
import { fnNamed } from "../../kernel/spans.ts"

const notFound = new EventNotFound({ message: "You have no calendar event with that id." })

const iso = (value: string) => new Date(value).toISOString()

/** A rule that cannot be read, or an end before the start, is the caller's mistake. */
const checkTiming = (event: CalendarEvent) => {
  if (event.endAt !== null && Date.parse(event.endAt) < Date.parse(event.startAt)) {
    return Effect.fail(
      new EventEndsBeforeStart({
        message: "An event cannot end before it starts.",
        details: { startAt: event.startAt, endAt: event.endAt }
      })
    )
  }
  const problem = event.recurrence === null ? null : recurrenceProblem(event.recurrence, event.startAt)
  return problem === null
    ? Effect.void
    : Effect.fail(
        new InvalidRecurrence({
          message: `The recurrence is not an RFC 5545 rule: ${problem}`,
          details: { recurrence: event.recurrence }
        })
      )
}

/** When a reminder of the event is due from `now` on: its start, or its next occurrence (in the being's zone). */
const reminderAt = (event: CalendarEvent, now: number, zone: string) => {
  if (event.recurrence === null) return event.startAt
  const next = nextOccurrence(event.recurrence, event.startAt, now, zone)
  return next === null ? event.startAt : new Date(next).toISOString()
}

const durationOf = (event: CalendarEvent) =>
  event.endAt === null ? 0 : Date.parse(event.endAt) - Date.parse(event.startAt)

const entryAt = (event: CalendarEvent, start: number, repeating: boolean): AgendaEntry => ({
  id: repeating ? `${event.id}@${new Date(start).toISOString()}` : event.id,
  title: event.title,
  body: event.description,
  startAt: new Date(start).toISOString(),
  endAt: event.endAt === null ? null : new Date(start + durationOf(event)).toISOString(),
  allDay: event.allDay,
  origin: "event",
  signalId: event.signalId,
  eventId: event.id
})

export class Calendar extends Effect.Service<Calendar>()("time/Calendar", {
  effect: Effect.gen(function* () {
    const events = yield* CalendarEventsRepository
    const reminders = yield* ReminderSignals
    const zones = yield* EventTimeZone

    const get = fnNamed("calendar.get")(function* (beingId: string, id: string) {
      const found = yield* events.find({ beingId, id })
      return yield* Option.match(found, { onNone: () => Effect.fail(notFound), onSome: Effect.succeed })
    })

    const remindOf = (event: CalendarEvent) =>
      Effect.gen(function* () {
        const zone = yield* zones.of(event.beingId)
        return yield* reminders.remind(event, reminderAt(event, yield* nowMillis, zone))
      })

    const create = fnNamed("calendar.create")(function* (beingId: string, input: CreateEvent) {
      const now = yield* nowIso
      const event: CalendarEvent = {
        id: newId(),
        beingId,
        title: input.title,
        description: input.description ?? "",
        location: input.location ?? "",
        startAt: iso(input.startAt),
        endAt: input.endAt == null ? null : iso(input.endAt),
        allDay: input.allDay ?? false,
        recurrence: input.recurrence == null ? null : input.recurrence.trim(),
        projectId: input.projectId ?? null,
        signalId: null,
        createdAt: now,
        updatedAt: now
      }
      yield* checkTiming(event)
      const signalId = input.remind === true ? yield* remindOf(event) : null
      const stored = { ...event, signalId }
      yield* events.insert(stored)
      return stored
    })

    const patch = fnNamed("calendar.patch")(function* (beingId: string, id: string, input: PatchEvent) {
      const event = yield* get(beingId, id)
      const changed: CalendarEvent = {
        ...event,
        ...(input.title === undefined ? {} : { title: input.title }),
        ...(input.description === undefined ? {} : { description: input.description }),
        ...(input.location === undefined ? {} : { location: input.location }),
        ...(input.startAt === undefined ? {} : { startAt: iso(input.startAt) }),
        ...(input.endAt === undefined ? {} : { endAt: input.endAt === null ? null : iso(input.endAt) }),
        ...(input.allDay === undefined ? {} : { allDay: input.allDay }),
        ...(input.recurrence === undefined
          ? {}
          : { recurrence: input.recurrence === null ? null : input.recurrence.trim() }),
        ...(input.projectId === undefined ? {} : { projectId: input.projectId }),
        updatedAt: yield* nowIso
      }
      yield* checkTiming(changed)
      // A reminder follows its event: a moved event gets a fresh one at its new time.
      const moved = changed.startAt !== event.startAt || changed.recurrence !== event.recurrence
      let signalId = event.signalId
      if (moved && signalId !== null) {
        yield* reminders.withdraw(beingId, signalId)
        signalId = yield* remindOf(changed)
      }
      const written = yield* events.update({ ...changed, signalId })
      return yield* Option.match(written, { onNone: () => Effect.fail(notFound), onSome: Effect.succeed })
    })

    const remove = fnNamed("calendar.remove")(function* (beingId: string, id: string) {
      const removed = yield* events.remove({ beingId, id })
      if (Option.isNone(removed)) return yield* Effect.fail(notFound)
      if (removed.value.signalId !== null) yield* reminders.withdraw(beingId, removed.value.signalId)
      return { ok: true as const }
    })

    /** The being's event occurrences overlapping [from, to], and the reminder signals its events link. */
    const agenda = fnNamed("calendar.agenda")(function* (beingId: string, from: string, to: string) {
      const [fromMs, toMs] = [Date.parse(from), Date.parse(to)]
      const candidates = yield* events.mayOccur({ beingId, from: iso(from), to: iso(to) })
      const zone = yield* zones.of(beingId)
      const entries = candidates.flatMap((event) =>
        event.recurrence === null
          ? [entryAt(event, Date.parse(event.startAt), false)]
          : occurrencesBetween(event.recurrence, event.startAt, durationOf(event), fromMs, toMs, zone).map((start) =>
              entryAt(event, start, true)
            )
      )
      const linked = yield* events.linkedSignals(beingId)
      return { entries, linkedSignalIds: new Set(linked.map((row) => row.signalId)) }
    })

    return { create, get, patch, remove, agenda } as const
  }),
  dependencies: [CalendarEventsRepository.Default]
}) {}
