/**
 * A person's calendar as RFC 5545 text (written by ical.js, which folds lines and escapes text): each event a VEVENT
 * with its RRULE, each to-do a VTODO with its status, priority and due date. UIDs are the node's ids, so an import
 * of this file into the same node updates rather than doubles.
 */
import type ICAL from "ical.js"
import type { EventRow, TodoRow } from "./export-repository.ts"
import { lazyModule } from "../../../kernel/lazy-module.ts"

/** At first use, as every library only a backup, an export or an import needs (docs/benchmarks.md, "Idle RSS"). */
const ical = lazyModule<typeof ICAL>("ical.js")

export const PRODID = "-//svc-node//Your data//EN"

const utc = (iso: string) => ical().Time.fromJSDate(new Date(iso), true)

/** An all-day event's date (its UTC calendar day). */
const dateOf = (iso: string) => {
  const time = utc(iso)
  time.isDate = true
  return time
}

const todoStatus: Record<string, string> = {
  open: "NEEDS-ACTION",
  deferred: "NEEDS-ACTION",
  done: "COMPLETED",
  dropped: "CANCELLED"
}

/** RFC 5545's PRIORITY: 1 highest, 9 lowest. */
const todoPriority: Record<string, number> = { urgent: 1, high: 3, normal: 5, low: 9 }

const vevent = (event: EventRow) => {
  const component = new (ical().Component)("vevent")
  component.addPropertyWithValue("uid", event.id)
  component.addPropertyWithValue("dtstamp", utc(event.updated_at))
  component.addPropertyWithValue("created", utc(event.created_at))
  component.addPropertyWithValue("last-modified", utc(event.updated_at))
  const allDay = event.all_day !== 0
  component.addPropertyWithValue("dtstart", allDay ? dateOf(event.start_at) : utc(event.start_at))
  if (event.end_at !== null) component.addPropertyWithValue("dtend", allDay ? dateOf(event.end_at) : utc(event.end_at))
  component.addPropertyWithValue("summary", event.title)
  if (event.description !== "") component.addPropertyWithValue("description", event.description)
  if (event.location !== "") component.addPropertyWithValue("location", event.location)
  if (event.recurrence !== null) {
    // An imported event keeps its exceptions as `EXDATE:` lines beside its rule (UTC, iCalendar's basic form).
    for (const line of event.recurrence.split(/\r?\n/)) {
      if (!/^EXDATE[:;]/i.test(line))
        component.addPropertyWithValue("rrule", ical().Recur.fromString(line.replace(/^RRULE:/i, "")))
      else
        for (const value of line.slice(line.indexOf(":") + 1).split(","))
          component.addPropertyWithValue(
            "exdate",
            utc(value.trim().replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z?$/, "$1-$2-$3T$4:$5:$6Z"))
          )
    }
  }
  return component
}

const vtodo = (todo: TodoRow) => {
  const component = new (ical().Component)("vtodo")
  component.addPropertyWithValue("uid", todo.id)
  component.addPropertyWithValue("dtstamp", utc(todo.updated_at))
  component.addPropertyWithValue("created", utc(todo.created_at))
  component.addPropertyWithValue("summary", todo.title)
  if (todo.notes !== "") component.addPropertyWithValue("description", todo.notes)
  component.addPropertyWithValue("status", todoStatus[todo.status] ?? "NEEDS-ACTION")
  component.addPropertyWithValue("priority", todoPriority[todo.priority] ?? 5)
  if (todo.due_at !== null) component.addPropertyWithValue("due", utc(todo.due_at))
  if (todo.completed_at !== null) component.addPropertyWithValue("completed", utc(todo.completed_at))
  return component
}

export const calendarText = (events: ReadonlyArray<EventRow>, todos: ReadonlyArray<TodoRow>): string => {
  const calendar = new (ical().Component)("vcalendar")
  calendar.addPropertyWithValue("version", "2.0")
  calendar.addPropertyWithValue("prodid", PRODID)
  calendar.addPropertyWithValue("calscale", "GREGORIAN")
  for (const event of events) calendar.addSubcomponent(vevent(event))
  for (const todo of todos) calendar.addSubcomponent(vtodo(todo))
  return `${calendar.toString()}\r\n`
}
