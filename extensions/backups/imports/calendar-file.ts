/**
 * An iCalendar file read with ical.js: its VTIMEZONEs registered first, so a DTSTART with a TZID becomes the right
 * instant; each VEVENT an event (its RRULE, with its EXDATEs as an `EXDATE:` line the recurrence reader takes), each
 * VTODO a to-do. An item that cannot be read is a problem named by its UID or summary; the rest are kept.
 */
import type ICAL from "ical.js"
import { lazyModule } from "../../../kernel/lazy-module.ts"

/** At first use, as every library only a backup, an export or an import needs (docs/benchmarks.md, "Idle RSS"). */
const ical = lazyModule<typeof ICAL>("ical.js")

export interface EventDraft {
  readonly uid: string
  readonly title: string
  readonly description: string
  readonly location: string
  readonly startAt: string
  readonly endAt: string | null
  readonly allDay: boolean
  readonly recurrence: string | null
}

export interface TodoDraft {
  readonly uid: string
  readonly title: string
  readonly notes: string
  readonly status: "open" | "done" | "dropped"
  readonly priority: "urgent" | "high" | "normal" | "low"
  readonly dueAt: string | null
  readonly completedAt: string | null
}

export interface CalendarFile {
  readonly events: ReadonlyArray<EventDraft>
  readonly todos: ReadonlyArray<TodoDraft>
  readonly problems: ReadonlyArray<string>
}

export const isCalendar = (text: string) => /^\uFEFF?\s*BEGIN:VCALENDAR/i.test(text)

const text = (component: ICAL.Component, name: string, max: number) => {
  const value = component.getFirstPropertyValue(name)
  return value === null || value === undefined ? "" : String(value).slice(0, max)
}

const instant = (time: ICAL.Time) => time.toJSDate().toISOString()

/** An all-day date as the node keeps it: midnight UTC of that day. */
const dayOf = (time: ICAL.Time) => new Date(Date.UTC(time.year, time.month - 1, time.day)).toISOString()

const timeOf = (component: ICAL.Component, name: string) => {
  const value = component.getFirstPropertyValue(name)
  return value instanceof ical().Time ? value : null
}

const recurrenceOf = (component: ICAL.Component) => {
  const rule = component.getFirstPropertyValue("rrule")
  if (!(rule instanceof ical().Recur)) return null
  const exdates = component
    .getAllProperties("exdate")
    .flatMap((property) => property.getValues())
    .filter((value): value is ICAL.Time => value instanceof ical().Time)
    .map((time) =>
      time
        .toJSDate()
        .toISOString()
        .replace(/[-:]/g, "")
        .replace(/\.\d{3}/, "")
    )
  return exdates.length === 0 ? rule.toString() : `RRULE:${rule.toString()}\nEXDATE:${exdates.join(",")}`
}

const todoStatus = (status: string): TodoDraft["status"] =>
  status === "COMPLETED" ? "done" : status === "CANCELLED" ? "dropped" : "open"

/** RFC 5545's PRIORITY: 1–2 urgent, 3–4 high, 0 or 5 normal, 6–9 low. */
const todoPriority = (priority: number): TodoDraft["priority"] =>
  priority >= 1 && priority <= 2 ? "urgent" : priority <= 4 && priority > 0 ? "high" : priority >= 6 ? "low" : "normal"

export const readCalendar = (source: string): CalendarFile => {
  const calendar = new (ical().Component)(ical().parse(source))
  for (const zone of calendar.getAllSubcomponents("vtimezone")) ical().TimezoneService.register(zone)
  const events: Array<EventDraft> = []
  const todos: Array<TodoDraft> = []
  const problems: Array<string> = []
  const named = (component: ICAL.Component) =>
    `"${(text(component, "summary", 80) || text(component, "uid", 80) || "an item").replace(/"/g, "'")}"`
  for (const component of calendar.getAllSubcomponents("vevent")) {
    try {
      const uid = text(component, "uid", 500)
      const start = timeOf(component, "dtstart")
      if (uid === "" || start === null) {
        problems.push(`${named(component)}: an event needs a UID and a DTSTART`)
        continue
      }
      const event = new (ical().Event)(component)
      const end = timeOf(component, "dtend") ?? (component.hasProperty("duration") ? event.endDate : null)
      events.push({
        uid,
        title: text(component, "summary", 200).trim() || "(no title)",
        description: text(component, "description", 4000),
        location: text(component, "location", 300),
        startAt: start.isDate ? dayOf(start) : instant(start),
        endAt: end === null ? null : end.isDate ? dayOf(end) : instant(end),
        allDay: start.isDate,
        recurrence: recurrenceOf(component)
      })
    } catch (error) {
      problems.push(`${named(component)}: ${String(error).slice(0, 200)}`)
    }
  }
  for (const component of calendar.getAllSubcomponents("vtodo")) {
    try {
      const uid = text(component, "uid", 500)
      if (uid === "") {
        problems.push(`${named(component)}: a to-do needs a UID`)
        continue
      }
      const due = timeOf(component, "due")
      const completed = timeOf(component, "completed")
      todos.push({
        uid,
        title: text(component, "summary", 200).trim() || "(no title)",
        notes: text(component, "description", 4000),
        status: todoStatus(text(component, "status", 40).toUpperCase()),
        priority: todoPriority(Number(component.getFirstPropertyValue("priority") ?? 0)),
        dueAt: due === null ? null : due.isDate ? dayOf(due) : instant(due),
        completedAt: completed === null ? null : instant(completed)
      })
    } catch (error) {
      problems.push(`${named(component)}: ${String(error).slice(0, 200)}`)
    }
  }
  return { events, todos, problems }
}
