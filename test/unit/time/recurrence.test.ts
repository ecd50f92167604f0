/**
 * Repeating events keep their local time in the being's zone: a weekly 09:00 in Paris is 08:00 UTC
 * before the spring change and 07:00 UTC after it, and back in autumn; a time inside the spring gap
 * moves past it; the next occurrence is found the same way.
 */
import { describe, expect, it } from "vitest"
import { nextOccurrence, occurrencesBetween } from "../../../extensions/time/recurrence.ts"
import { fromWall, toWall } from "../../../extensions/time/zoned.ts"

const ms = (iso: string) => Date.parse(iso)
const isos = (starts: ReadonlyArray<number>) => starts.map((start) => new Date(start).toISOString())

describe("occurrencesBetween in a time zone", () => {
  it("keeps a weekly 09:00 Paris at 09:00 local across the spring and autumn changes", () => {
    // 2031: summer time from Sunday 30 March to Sunday 26 October in the EU.
    const spring = occurrencesBetween(
      "FREQ=WEEKLY",
      "2031-03-17T08:00:00Z",
      3_600_000,
      ms("2031-03-15T00:00:00Z"),
      ms("2031-04-10T00:00:00Z"),
      "Europe/Paris"
    )
    expect(isos(spring)).toEqual([
      "2031-03-17T08:00:00.000Z",
      "2031-03-24T08:00:00.000Z",
      "2031-03-31T07:00:00.000Z",
      "2031-04-07T07:00:00.000Z"
    ])
    const autumn = occurrencesBetween(
      "FREQ=WEEKLY;BYDAY=MO",
      "2031-03-17T08:00:00Z",
      0,
      ms("2031-10-18T00:00:00Z"),
      ms("2031-11-04T00:00:00Z"),
      "Europe/Paris"
    )
    expect(isos(autumn)).toEqual(["2031-10-20T07:00:00.000Z", "2031-10-27T08:00:00.000Z", "2031-11-03T08:00:00.000Z"])
  })

  it("in UTC repeats on the same UTC time, as before", () => {
    const utc = occurrencesBetween(
      "FREQ=WEEKLY",
      "2031-03-17T08:00:00Z",
      0,
      ms("2031-03-20T00:00:00Z"),
      ms("2031-04-05T00:00:00Z"),
      "UTC"
    )
    expect(isos(utc)).toEqual(["2031-03-24T08:00:00.000Z", "2031-03-31T08:00:00.000Z"])
  })

  it("counts an occurrence that began before the range but lasts into it, and keeps COUNT", () => {
    const starts = occurrencesBetween(
      "FREQ=DAILY;COUNT=3",
      "2031-03-29T22:30:00Z",
      2 * 3_600_000,
      ms("2031-03-31T00:00:00Z"),
      ms("2031-04-10T00:00:00Z"),
      "Europe/Paris"
    )
    // 23:30 local on the 29th (UTC+1), 30th and 31st (UTC+2): the last starts 21:30Z on the 31st; the 30th's runs to
    // 23:30Z on the 30th.
    expect(isos(starts)).toEqual(["2031-03-31T21:30:00.000Z"])
  })
})

describe("nextOccurrence in a time zone", () => {
  it("answers the next local 09:00 after the change", () => {
    expect(
      new Date(
        nextOccurrence("FREQ=WEEKLY", "2031-03-17T08:00:00Z", ms("2031-03-25T00:00:00Z"), "Europe/Paris")!
      ).toISOString()
    ).toBe("2031-03-31T07:00:00.000Z")
    expect(
      nextOccurrence("FREQ=WEEKLY;COUNT=2", "2031-03-17T08:00:00Z", ms("2031-04-01T00:00:00Z"), "Europe/Paris")
    ).toBeNull()
  })
})

describe("wall-clock times", () => {
  it("moves a time in the spring gap past it and takes the earlier of an autumn overlap", () => {
    expect(new Date(fromWall(ms("2031-03-30T02:30:00Z"), "Europe/Paris")).toISOString()).toBe(
      "2031-03-30T01:30:00.000Z"
    )
    expect(new Date(fromWall(ms("2031-10-26T02:30:00Z"), "Europe/Paris")).toISOString()).toBe(
      "2031-10-26T00:30:00.000Z"
    )
    expect(toWall(ms("2031-07-01T12:00:00Z"), "America/New_York")).toBe(ms("2031-07-01T08:00:00Z"))
  })
})
