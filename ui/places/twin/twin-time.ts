/**
 * Times as the twin's forms and lists handle them: the browser's `datetime-local` and `time`
 * inputs speak local wall-clock time, the node speaks ISO 8601 instants and minutes since
 * midnight.
 */

/** A `datetime-local` value ("2030-01-31T09:00") as an instant; null when empty or unreadable. */
export const instantOf = (local: string): string | null => {
  if (local === "") return null
  const date = new Date(local)
  return Number.isNaN(date.getTime()) ? null : date.toISOString()
}

/** "HH:MM" of minutes since midnight. */
export const clockOf = (minutes: number): string =>
  `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`

/** Minutes since midnight of "HH:MM"; null when unreadable. */
export const minutesOf = (clock: string): number | null => {
  const match = /^(\d{2}):(\d{2})/.exec(clock)
  return match === null ? null : Number(match[1]) * 60 + Number(match[2])
}

/** Local midnight of the day `at` falls on. */
export const startOfDay = (at: Date): Date => new Date(at.getFullYear(), at.getMonth(), at.getDate())

/** The day `days` on from `at` (negative: before), at the same wall-clock time. */
export const addDays = (at: Date, days: number): Date =>
  new Date(at.getFullYear(), at.getMonth(), at.getDate() + days, at.getHours(), at.getMinutes())

/** Monday of `at`'s week, at midnight. */
export const startOfWeek = (at: Date): Date => addDays(startOfDay(at), -((at.getDay() + 6) % 7))

const dayFormat = new Intl.DateTimeFormat(undefined, { weekday: "long", day: "numeric", month: "long" })
const shortDayFormat = new Intl.DateTimeFormat(undefined, { weekday: "short", day: "numeric", month: "short" })
const timeFormat = new Intl.DateTimeFormat(undefined, { timeStyle: "short" })
const shortFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" })

export const formatDay = (at: Date): string => dayFormat.format(at)

export const formatShortDay = (at: Date): string => shortDayFormat.format(at)

export const formatTime = (iso: string): string => timeFormat.format(new Date(iso))

export const formatDate = (iso: string): string => {
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? iso : shortFormat.format(date)
}

/** A day's key, in local time, for grouping ("2030-01-31"). */
export const dayKey = (at: Date): string =>
  `${at.getFullYear()}-${String(at.getMonth() + 1).padStart(2, "0")}-${String(at.getDate()).padStart(2, "0")}`
