/**
 * Wall-clock time in an IANA time zone, through the runtime's Intl (no zone database of our own):
 * an instant's local date and time as a "floating" millisecond count (its UTC fields read as the
 * local ones), and back. Recurrence expands on floating times, so a weekly 09:00 stays 09:00 local
 * on both sides of a daylight-saving change.
 */
const formats = new Map<string, Intl.DateTimeFormat>()

const formatOf = (zone: string) => {
  let format = formats.get(zone)
  if (format === undefined) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric"
    })
    formats.set(zone, format)
  }
  return format
}

const HALF_DAY = 12 * 3_600_000

/** The local date and time of `instant` in `zone`, as floating ms. */
export const toWall = (instant: number, zone: string): number => {
  const field: Record<string, number> = {}
  for (const part of formatOf(zone).formatToParts(new Date(instant))) field[part.type] = Number(part.value)
  const millis = ((instant % 1000) + 1000) % 1000
  return Date.UTC(field.year!, field.month! - 1, field.day!, field.hour!, field.minute!, field.second!) + millis
}

const offsetAt = (instant: number, zone: string) => toWall(instant, zone) - instant

/**
 * The instant a local date and time names in `zone`. In an overlap (clocks set back) the earlier
 * one; in a gap (clocks set forward) the time as the offset before the gap reads it (02:30 in a
 * gap from 02:00 to 03:00 becomes 03:30), as most calendars do.
 */
export const fromWall = (wall: number, zone: string): number => {
  const before = offsetAt(wall - HALF_DAY, zone)
  const after = offsetAt(wall + HALF_DAY, zone)
  const fits = [wall - before, wall - after].filter((instant) => toWall(instant, zone) === wall)
  return fits.length > 0 ? Math.min(...fits) : wall - before
}
