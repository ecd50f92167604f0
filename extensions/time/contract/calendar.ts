/**
 * Calendar events and the agenda, as the second document names them, with the request shapes of
 * their routes. Plain schemas only: the HTTP contract, and through it the web app, import this file.
 */
import * as Schema from "effect/Schema"
import { IsoDateInput } from "../../../actors/being/contract/signal.ts"
import { RecordId } from "./todos.ts"

export const CalendarEvent = Schema.Struct({
  id: Schema.String,
  beingId: Schema.String,
  title: Schema.String,
  description: Schema.String,
  location: Schema.String,
  startAt: Schema.String,
  endAt: Schema.NullOr(Schema.String),
  allDay: Schema.Boolean,
  /** An RFC 5545 RRULE (`FREQ=WEEKLY;BYDAY=MO`), repeating from `startAt`; null: once. */
  recurrence: Schema.NullOr(Schema.String),
  projectId: Schema.NullOr(Schema.String),
  /** The linked reminder signal, when one was asked for (`remind: true`). */
  signalId: Schema.NullOr(Schema.String),
  createdAt: Schema.String,
  updatedAt: Schema.String
})
export type CalendarEvent = typeof CalendarEvent.Type

export const RECURRENCE_MAX = 500

const EventFields = {
  title: Schema.Trim.pipe(Schema.minLength(1, { message: () => "a title" }), Schema.maxLength(200)),
  description: Schema.optional(Schema.String.pipe(Schema.maxLength(4000))),
  location: Schema.optional(Schema.String.pipe(Schema.maxLength(300))),
  startAt: IsoDateInput,
  endAt: Schema.optional(Schema.NullOr(IsoDateInput)),
  allDay: Schema.optional(Schema.Boolean),
  recurrence: Schema.optional(Schema.NullOr(Schema.String.pipe(Schema.maxLength(RECURRENCE_MAX)))),
  projectId: Schema.optional(Schema.NullOr(RecordId))
}

export const CreateEvent = Schema.Struct({
  ...EventFields,
  /** A reminder signal on the desktop when the event starts (its next occurrence, if it repeats). */
  remind: Schema.optional(Schema.Boolean)
})
export type CreateEvent = typeof CreateEvent.Type

/** Any create field but `remind`; left out is unchanged, null clears. */
export const PatchEvent = Schema.Struct({
  ...EventFields,
  title: Schema.optional(EventFields.title),
  startAt: Schema.optional(IsoDateInput)
})
export type PatchEvent = typeof PatchEvent.Type

export const AgendaEntry = Schema.Struct({
  /** The event's id, `<event id>@<start>` for an occurrence of a repeating one, or the signal's id. */
  id: Schema.String,
  title: Schema.String,
  body: Schema.String,
  startAt: Schema.String,
  endAt: Schema.NullOr(Schema.String),
  allDay: Schema.Boolean,
  origin: Schema.Literal("event", "signal"),
  signalId: Schema.NullOr(Schema.String),
  eventId: Schema.NullOr(Schema.String)
})
export type AgendaEntry = typeof AgendaEntry.Type

export const AGENDA_MAX_DAYS = 400

/** Both ends required; `to` after `from`, at most 400 days apart. */
export const CalendarParams = Schema.Struct({ from: IsoDateInput, to: IsoDateInput }).pipe(
  Schema.filter(({ from, to }) => {
    const span = Date.parse(to) - Date.parse(from)
    return span > 0 && span <= AGENDA_MAX_DAYS * 86_400_000
      ? true
      : `a range whose "to" comes after "from", at most ${AGENDA_MAX_DAYS} days on`
  })
)
