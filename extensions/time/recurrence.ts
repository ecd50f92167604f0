/**
 * RFC 5545 recurrence through `rrule`: checking a rule, expanding an event's occurrences inside a
 * range, and finding its next one. Rules repeat from the event's start in UTC.
 */
import rrule from "rrule"

/** An agenda range expands at most this many occurrences of one event. */
export const MAX_OCCURRENCES = 1000

const ruleOf = (recurrence: string, startAt: string) => rrule.rrulestr(recurrence.trim(), { dtstart: new Date(startAt) })

/** Why the rule cannot be read, or null when it can. */
export const recurrenceProblem = (recurrence: string, startAt: string): string | null => {
  if (!/FREQ=/i.test(recurrence)) return "a rule names its FREQ (such as FREQ=WEEKLY;BYDAY=MO)"
  try {
    ruleOf(recurrence, startAt).all((_, index) => index < 1)
    return null
  } catch (error) {
    return error instanceof Error ? error.message : String(error)
  }
}

/** Starts (ms) of the occurrences lasting `durationMs` that overlap [from, to]. */
export const occurrencesBetween = (recurrence: string, startAt: string, durationMs: number, from: number, to: number): Array<number> =>
  ruleOf(recurrence, startAt)
    .between(new Date(from - durationMs), new Date(to), true, (_, index) => index < MAX_OCCURRENCES)
    .map((date) => date.getTime())

/** The first occurrence at or after `at`, if the rule has one. */
export const nextOccurrence = (recurrence: string, startAt: string, at: number): number | null =>
  ruleOf(recurrence, startAt).after(new Date(at), true)?.getTime() ?? null
