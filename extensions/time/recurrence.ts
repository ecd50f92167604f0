/**
 * RFC 5545 recurrence through `rrule`: checking a rule, expanding an event's occurrences inside a
 * range, and finding its next one. A rule repeats from the event's start in the being's time zone
 * (its profile's): expanded on local wall-clock times (zoned.ts) and read back as instants, so a
 * weekly 09:00 stays 09:00 local across a daylight-saving change. An UNTIL is compared with the
 * local times, as a floating date.
 */
import type * as RRule from "rrule"
import { lazyModule } from "../../kernel/lazy-module.ts"
import { fromWall, toWall } from "./zoned.ts"

/** Loaded at the first recurring event read: an idle node does not hold it. */
const rrule = lazyModule<typeof RRule>("rrule")

/** An agenda range expands at most this many occurrences of one event. */
export const MAX_OCCURRENCES = 1000

const DAY = 86_400_000

/** `20310113T080000Z` (an iCalendar UTC date-time, as an import keeps EXDATEs) as epoch ms. */
const icsInstant = (value: string) => {
  const match = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})Z?)?$/.exec(value.trim())
  if (match === null) throw new Error(`an EXDATE of ${value.slice(0, 40)} is not a UTC date-time`)
  const [, y, mo, d, h = "0", mi = "0", s = "0"] = match
  return Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s))
}

/**
 * The rule, or with `EXDATE:` lines (an imported calendar's exceptions, UTC instants) a set excluding them: built by
 * hand, since rrule's parsed sets ignore the `dtstart` option, each exception read in the zone as the rule is.
 */
const ruleOf = (recurrence: string, startAt: string, zone: string) => {
  const dtstart = new Date(toWall(Date.parse(startAt), zone))
  const lines = recurrence.trim().split(/\r?\n/)
  const exceptions = lines.filter((line) => /^EXDATE[:;]/i.test(line))
  if (exceptions.length === 0) return rrule().rrulestr(recurrence.trim(), { dtstart })
  const set = new (rrule().RRuleSet)()
  const rule = lines.find((line) => !/^EXDATE[:;]/i.test(line)) ?? ""
  set.rrule(new (rrule().RRule)({ ...rrule().RRule.parseString(rule.replace(/^RRULE:/i, "")), dtstart }))
  for (const line of exceptions)
    for (const value of line.slice(line.indexOf(":") + 1).split(","))
      set.exdate(new Date(toWall(icsInstant(value), zone)))
  return set
}

/** Why the rule cannot be read, or null when it can. */
export const recurrenceProblem = (recurrence: string, startAt: string): string | null => {
  if (!/FREQ=/i.test(recurrence)) return "a rule names its FREQ (such as FREQ=WEEKLY;BYDAY=MO)"
  try {
    ruleOf(recurrence, startAt, "UTC").all((_, index) => index < 1)
    return null
  } catch (error) {
    return error instanceof Error ? error.message : String(error)
  }
}

/** Starts (ms) of the occurrences lasting `durationMs` that overlap [from, to], the rule read in `zone`. */
export const occurrencesBetween = (
  recurrence: string,
  startAt: string,
  durationMs: number,
  from: number,
  to: number,
  zone: string
): Array<number> =>
  // A zone is at most a day off UTC: a day either side in local time holds every occurrence of the range.
  ruleOf(recurrence, startAt, zone)
    .between(
      new Date(toWall(from - durationMs, zone) - DAY),
      new Date(toWall(to, zone) + DAY),
      true,
      (_, index) => index < MAX_OCCURRENCES
    )
    .map((wall) => fromWall(wall.getTime(), zone))
    .filter((start) => start + durationMs >= from && start <= to)

/** The first occurrence at or after `at`, if the rule has one. */
export const nextOccurrence = (recurrence: string, startAt: string, at: number, zone: string): number | null => {
  const rule = ruleOf(recurrence, startAt, zone)
  let wall = rule.after(new Date(toWall(at, zone) - DAY), true)
  for (let seen = 0; wall !== null && seen < MAX_OCCURRENCES; seen++) {
    const start = fromWall(wall.getTime(), zone)
    if (start >= at) return start
    wall = rule.after(wall, false)
  }
  return null
}
