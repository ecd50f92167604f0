/**
 * The hush gate's rule (actors/being/gate.ts) and the local-time arithmetic under it: quiet
 * hours in the being's zone (a window over midnight too), the daily cap that urgent never
 * overrides, `fewer` and `off`, a snooze, and the triggers that pass.
 */
import { describe, expect, it } from "vitest"
import type { HushSettings } from "../../../actors/being/contract/hush.ts"
import { decide, type GateRequest } from "../../../actors/being/gate.ts"
import { defaultHush } from "../../../actors/being/hush-repository.ts"
import { inWindow, localDayStart, localMinute, nextLocalMinute } from "../../../actors/being/local-time.ts"

const at = (iso: string) => Date.parse(iso)
const settings = (change: Partial<HushSettings> = {}): HushSettings => ({ ...defaultHush("ada"), ...change })
const proactive: GateRequest = { beingId: "ada", trigger: "proactive", holdUntil: null }
const facts = (now: string, change: Partial<HushSettings> = {}, usedToday = 0, timeZone = "UTC") => ({
  now: at(now),
  timeZone,
  settings: settings(change),
  usedToday
})

describe("local time", () => {
  it("reads the minute of the local day and the day's start in a zone", () => {
    expect(localMinute(at("2030-06-01T21:30:00Z"), "Europe/Paris")).toBe(23 * 60 + 30)
    expect(new Date(localDayStart(at("2030-06-01T23:30:00Z"), "Europe/Paris")).toISOString()).toBe(
      "2030-06-01T22:00:00.000Z"
    )
    expect(new Date(localDayStart(at("2030-06-01T10:15:42.123Z"), "UTC")).toISOString()).toBe(
      "2030-06-01T00:00:00.000Z"
    )
  })

  it("tells a window over midnight and finds its next end", () => {
    expect([23 * 60, 2 * 60, 7 * 60, 12 * 60].map((minute) => inWindow(minute, 22 * 60, 7 * 60))).toEqual([
      true,
      true,
      false,
      false
    ])
    expect(inWindow(600, 0, 0)).toBe(false)
    expect(new Date(nextLocalMinute(at("2030-06-01T21:30:10Z"), "Europe/Paris", 7 * 60)).toISOString()).toBe(
      "2030-06-02T05:00:00.000Z"
    )
    expect(new Date(nextLocalMinute(at("2030-06-02T03:00:00Z"), "UTC", 7 * 60)).toISOString()).toBe(
      "2030-06-02T07:00:00.000Z"
    )
  })
})

describe("the gate's rule", () => {
  const quiet = { quietStart: 22 * 60, quietEnd: 7 * 60 }

  it("holds a proactive nudge in quiet hours, in the being's zone, until the window's end", () => {
    const stamp = decide(proactive, facts("2030-06-01T21:30:00Z", quiet, 0, "Europe/Paris"))
    expect(stamp).toMatchObject({
      decision: "held",
      key: "quiet_hours",
      heldUntil: "2030-06-02T05:00:00.000Z",
      countedAgainst: { used: 1, cap: 12 }
    })
    // In UTC the same instant is 21:30: before the window.
    expect(decide(proactive, facts("2030-06-01T21:30:00Z", quiet, 0, "UTC")).decision).toBe("raised")
  })

  it("refuses over the daily cap whatever the priority, and counts raised and held nudges only", () => {
    expect(decide(proactive, facts("2030-06-01T12:00:00Z", { dailyCap: 3 }, 2))).toMatchObject({
      decision: "raised",
      key: "within_cap",
      countedAgainst: { used: 3, cap: 3 }
    })
    expect(decide(proactive, facts("2030-06-01T12:00:00Z", { dailyCap: 3 }, 3))).toMatchObject({
      decision: "refused",
      key: "daily_cap",
      countedAgainst: { used: 3, cap: 3 }
    })
    // Over the cap in quiet hours: refused, not held (it would never be shown).
    expect(decide(proactive, facts("2030-06-01T23:00:00Z", { ...quiet, dailyCap: 1 }, 1)).decision).toBe("refused")
  })

  it("halves the cap at level fewer (rounded up) and refuses every proactive nudge at off", () => {
    expect(decide(proactive, facts("2030-06-01T12:00:00Z", { level: "fewer", dailyCap: 5 }, 2)).countedAgainst).toEqual(
      { used: 3, cap: 3 }
    )
    expect(decide(proactive, facts("2030-06-01T12:00:00Z", { level: "fewer", dailyCap: 5 }, 3)).key).toBe("daily_cap")
    expect(decide(proactive, facts("2030-06-01T12:00:00Z", { level: "off" }))).toMatchObject({
      decision: "refused",
      key: "level_off"
    })
  })

  it("holds every proactive nudge while snoozed, until the snooze ends", () => {
    const stamp = decide(proactive, facts("2030-06-01T12:00:00Z", { mutedUntil: "2030-06-01T14:00:00.000Z" }))
    expect(stamp).toMatchObject({ decision: "held", key: "muted", heldUntil: "2030-06-01T14:00:00.000Z" })
    expect(decide(proactive, facts("2030-06-01T15:00:00Z", { mutedUntil: "2030-06-01T14:00:00.000Z" })).decision).toBe(
      "raised"
    )
  })

  it("lets system through everything and responsive through all but its own later time, neither counted", () => {
    const closed = { level: "off" as const, dailyCap: 0, mutedUntil: "2031-01-01T00:00:00.000Z", ...quiet }
    expect(decide({ ...proactive, trigger: "system" }, facts("2030-06-01T23:00:00Z", closed, 99))).toMatchObject({
      decision: "raised",
      key: "system",
      countedAgainst: null
    })
    expect(decide({ ...proactive, trigger: "responsive" }, facts("2030-06-01T23:00:00Z", closed, 99))).toMatchObject({
      decision: "raised",
      key: "responsive",
      countedAgainst: null
    })
    const reminder = decide(
      { beingId: "ada", trigger: "responsive", holdUntil: "2030-06-02T09:00:00.000Z" },
      facts("2030-06-01T23:00:00Z", closed)
    )
    expect(reminder).toMatchObject({ decision: "held", key: "scheduled", heldUntil: "2030-06-02T09:00:00.000Z" })
  })
})
