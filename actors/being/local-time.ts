/**
 * Wall-clock arithmetic in a being's time zone, for quiet hours and "today": the minute of the
 * local day, the local day's start and the next instant the local clock shows a given minute.
 * Offsets are read at the instant asked; a daylight-saving jump inside the span moves the answer
 * by that hour, which a quiet-hours window can bear.
 */
const MINUTE = 60_000
const DAY_MINUTES = 1440

/** One formatter per time zone: making one costs far more than formatting (every raise through the gate reads one). */
const formats = new Map<string, Intl.DateTimeFormat>()
const formatOf = (timeZone: string) => {
  let format = formats.get(timeZone)
  if (format === undefined) {
    format = new Intl.DateTimeFormat("en-GB", {
      timeZone,
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
      hourCycle: "h23"
    })
    // Time zones are a few hundred names; a being's is checked before it is stored, so this stays small.
    formats.set(timeZone, format)
  }
  return format
}

const parts = (at: number, timeZone: string) => {
  const format = formatOf(timeZone)
  const read = Object.fromEntries(format.formatToParts(new Date(at)).map((part) => [part.type, part.value]))
  return { hour: Number(read.hour), minute: Number(read.minute), second: Number(read.second) }
}

/** Minutes since local midnight at `at`. */
export const localMinute = (at: number, timeZone: string) => {
  const { hour, minute } = parts(at, timeZone)
  return hour * 60 + minute
}

/** The instant the local day of `at` began. */
export const localDayStart = (at: number, timeZone: string) => {
  const { hour, minute, second } = parts(at, timeZone)
  return at - ((hour * 60 + minute) * 60 + second) * 1000 - (at % 1000)
}

/**
 * Whether the local minute falls in the window [start, end), which may wrap past midnight; start = end is no window.
 */
export const inWindow = (minute: number, start: number, end: number) =>
  start === end ? false : start < end ? minute >= start && minute < end : minute >= start || minute < end

/** The next instant, after `at`, whose local time is `minuteOfDay` on the minute. */
export const nextLocalMinute = (at: number, timeZone: string, minuteOfDay: number) => {
  const { second } = parts(at, timeZone)
  const startOfMinute = at - second * 1000 - (at % 1000)
  const ahead = (minuteOfDay - localMinute(at, timeZone) + DAY_MINUTES) % DAY_MINUTES || DAY_MINUTES
  return startOfMinute + ahead * MINUTE
}
