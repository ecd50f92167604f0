/**
 * The hush gate through the node: settings (GET/PUT, refusals), quiet hours holding a proactive
 * nudge (no live event, off the desktop, counted in the desktop's summary, a release job at the
 * window's end), the daily cap refusing one (never published, kept for audit), level off, a
 * snooze, "what did I miss" and "why was I nudged" with its evidence read at ask time.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { describe, expect, it } from "vitest"
import type { GateTrigger } from "../../actors/being/contract/hush.ts"
import { SignalInput } from "../../actors/being/contract/signal.ts"
import { Scheduler } from "../../extensions/time/scheduler.ts"
import { Signals } from "../../extensions/desktop/contract/signals.ts"
import { inNode, LiveTab } from "../support/live.ts"
import { apiError, type Client, nodeWithOwner, refused, registerMember, run } from "../support/node.ts"

const context = nodeWithOwner()

const raise = (
  beingId: string,
  title: string,
  trigger: GateTrigger,
  extra: Record<string, unknown> = {},
  evidence: Array<{ kind: "todo" | "event" | "memory" | "project" | "unknown"; id: string }> = []
) =>
  inNode(
    context.node,
    Effect.flatMap(Signals, (signals) =>
      signals.raise(beingId, Schema.decodeUnknownSync(SignalInput)({ title, ...extra }), "test", trigger, { evidence })
    )
  )

const openTitles = async (client: Client) =>
  (await run(client.api.desktop.listSignals({ urlParams: { status: "open", limit: 100, offset: 0 } }))).map(
    (signal) => signal.title
  )

/** Quiet hours around this minute (UTC, the zone of a being whose profile names none). */
const quietNow = () => {
  const now = new Date()
  const minute = now.getUTCHours() * 60 + now.getUTCMinutes()
  return { quietStart: (minute + 1440 - 5) % 1440, quietEnd: (minute + 60) % 1440 }
}

describe("hush settings", () => {
  it("answers the defaults, changes what is given, snoozes and clears a snooze", async () => {
    const { client, being } = await registerMember(context.node, context.owner.client)
    const api = client.api.twinHush
    expect(await run(api.getHush())).toEqual({
      beingId: being.id,
      level: "normal",
      quietStart: 0,
      quietEnd: 0,
      dailyCap: 12,
      mutedUntil: null,
      updatedAt: null
    })
    const changed = await run(api.putHush({ payload: { level: "fewer", quietStart: 22 * 60, quietEnd: 7 * 60 } }))
    expect(changed).toMatchObject({ level: "fewer", quietStart: 1320, quietEnd: 420, dailyCap: 12, mutedUntil: null })
    const asked = Date.now()
    const snoozed = await run(api.putHush({ payload: { muteHours: 2 } }))
    expect(Math.abs(Date.parse(snoozed.mutedUntil!) - (asked + 2 * 3_600_000))).toBeLessThan(5_000)
    expect(snoozed.level).toBe("fewer")
    expect((await run(api.putHush({ payload: { muteHours: 0 } }))).mutedUntil).toBeNull()
    expect(await run(api.getHush())).toMatchObject({ level: "fewer", quietStart: 1320, mutedUntil: null })
  })

  it("refuses values out of range with 400 and changes nothing", async () => {
    const { client } = await registerMember(context.node, context.owner.client)
    for (const body of [
      { level: "loud" },
      { quietStart: 1440 },
      { quietEnd: -1 },
      { dailyCap: 101 },
      { dailyCap: 1.5 },
      { muteHours: 1000 },
      { muteHours: -1 }
    ]) {
      const answer = await client.raw("PUT", "/api/twin/hush", body)
      expect(answer.status, JSON.stringify(body)).toBe(400)
      expect(apiError(answer).error).toBe("invalid_request")
    }
    expect((await run(client.api.twinHush.getHush())).updatedAt).toBeNull()
  })
})

describe("the gate at the hub", () => {
  it("holds a proactive nudge in quiet hours: no live event, off the desktop, counted as held, released at the window's end", async () => {
    const { client, being } = await registerMember(context.node, context.owner.client)
    // Taken once: a second reading a minute later would name another window's end.
    const quiet = quietNow()
    await run(client.api.twinHush.putHush({ payload: quiet }))
    const tab = await LiveTab.open(context.node, client)
    const held = await raise(being.id, "A thought at night", "proactive")
    expect(held.delivered).toBe(false)
    await raise(being.id, "marker", "system")
    await tab.nextOf("signal.created", (frame) => frame.signal.title === "marker")
    expect(tab.frames.some((frame) => frame.type === "signal.created" && frame.signal.id === held.signal.id)).toBe(
      false
    )
    expect(await openTitles(client)).toEqual(["marker"])
    expect((await run(client.api.desktop.now({ urlParams: {} }))).heldNudges).toBe(1)

    const missed = await run(client.api.twinHush.heldNudges())
    expect(missed.refused).toEqual([])
    expect(missed.held).toHaveLength(1)
    const nudge = missed.held[0]!
    expect(nudge).toMatchObject({
      id: held.signal.id,
      title: "A thought at night",
      source: "test",
      why: `/api/twin/nudges/${held.signal.id}/why`
    })
    expect(nudge.countedAgainst).toEqual({ used: 1, cap: 12 })
    expect(held.signal.dueAt).toBe(nudge.heldUntil)
    const end = new Date(Date.parse(nudge.heldUntil!))
    expect(end.getUTCHours() * 60 + end.getUTCMinutes()).toBe(quiet.quietEnd)
    const job = await inNode(
      context.node,
      Effect.flatMap(Scheduler, (scheduler) => scheduler.find(`signal.release:${held.signal.id}`))
    )
    expect(Option.getOrNull(job)).toMatchObject({ kind: "signal.release", dueAt: nudge.heldUntil })
    await tab.close()
  })

  it("refuses a proactive nudge over the daily cap, urgent too: never published, kept for audit; system and responsive pass", async () => {
    const { client, being } = await registerMember(context.node, context.owner.client)
    await run(client.api.twinHush.putHush({ payload: { dailyCap: 2 } }))
    const tab = await LiveTab.open(context.node, client)
    expect((await raise(being.id, "one", "proactive")).delivered).toBe(true)
    expect((await raise(being.id, "two", "proactive")).delivered).toBe(true)
    const over = await raise(being.id, "three, urgent", "proactive", { priority: "urgent" })
    expect(over.delivered).toBe(false)
    expect(over.signal.status).toBe("dismissed")
    expect((await raise(being.id, "duty", "system")).delivered).toBe(true)
    expect((await raise(being.id, "asked for", "responsive")).delivered).toBe(true)
    await tab.nextOf("signal.created", (frame) => frame.signal.title === "asked for")
    expect(tab.frames.some((frame) => "signal" in frame && frame.signal.id === over.signal.id)).toBe(false)
    expect((await openTitles(client)).sort()).toEqual(["asked for", "duty", "one", "two"])
    const dismissed = await run(
      client.api.desktop.listSignals({ urlParams: { status: "dismissed", limit: 100, offset: 0 } })
    )
    expect(dismissed).toEqual([])

    const missed = await run(client.api.twinHush.heldNudges())
    expect(missed.refused.map((nudge) => [nudge.title, nudge.priority, nudge.countedAgainst])).toEqual([
      ["three, urgent", "urgent", { used: 2, cap: 2 }]
    ])
    const why = await run(client.api.twinHush.nudgeWhy({ path: { id: over.signal.id } }))
    expect(why.gate).toMatchObject({
      trigger: "proactive",
      decision: "refused",
      key: "daily_cap",
      countedAgainst: { used: 2, cap: 2 },
      heldUntil: null
    })
    await tab.close()
  })

  it("refuses every proactive nudge at level off and holds them while snoozed", async () => {
    const { client, being } = await registerMember(context.node, context.owner.client)
    await run(client.api.twinHush.putHush({ payload: { level: "off" } }))
    expect((await raise(being.id, "muted by off", "proactive")).signal.status).toBe("dismissed")
    expect((await raise(being.id, "still a duty", "system")).delivered).toBe(true)
    const snoozed = await run(client.api.twinHush.putHush({ payload: { level: "normal", muteHours: 3 } }))
    const held = await raise(being.id, "later please", "proactive")
    expect(held.delivered).toBe(false)
    expect(held.signal.dueAt).toBe(snoozed.mutedUntil)
    const missed = await run(client.api.twinHush.heldNudges())
    expect(missed.held.map((nudge) => [nudge.title, nudge.heldUntil])).toEqual([["later please", snoozed.mutedUntil]])
    expect(missed.refused.map((nudge) => nudge.title)).toEqual(["muted by off"])
  })

  it("lets through at once what a snooze held when the snooze is cleared", async () => {
    const { client, being } = await registerMember(context.node, context.owner.client)
    await run(client.api.twinHush.putHush({ payload: { muteHours: 5 } }))
    const held = await raise(being.id, "snoozed nudge", "proactive")
    expect(held.delivered).toBe(false)
    const tab = await LiveTab.open(context.node, client)
    await run(client.api.twinHush.putHush({ payload: { muteHours: 0 } }))
    await tab.nextOf("signal.created", (frame) => frame.signal.id === held.signal.id)
    expect(await openTitles(client)).toEqual(["snoozed nudge"])
    const job = await inNode(
      context.node,
      Effect.flatMap(Scheduler, (scheduler) => scheduler.find(`signal.release:${held.signal.id}`))
    )
    expect(Option.isNone(job)).toBe(true)
    expect((await run(client.api.desktop.now({ urlParams: {} }))).heldNudges).toBe(0)
    await tab.close()
  })
})

describe("why was I nudged", () => {
  it("reads the stamp written then and the evidence as it is now: a deleted to-do reads as gone", async () => {
    const { client, being } = await registerMember(context.node, context.owner.client)
    const todo = await run(
      client.api.twinTime.createTodo({ payload: { title: "Renew the passport", notes: "expires in May" } })
    )
    const event = await run(
      client.api.twinTime.createEvent({ payload: { title: "Passport office", startAt: "2031-04-01T09:00:00Z" } })
    )
    const nudge = await raise(being.id, "Your passport", "proactive", {}, [
      { kind: "todo", id: todo.id },
      { kind: "event", id: event.id }
    ])
    const before = await run(client.api.twinHush.nudgeWhy({ path: { id: nudge.signal.id } }))
    expect(before).toMatchObject({
      title: "Your passport",
      source: "test",
      gate: {
        trigger: "proactive",
        decision: "raised",
        key: "within_cap",
        countedAgainst: { used: 1, cap: 12 },
        heldUntil: null
      },
      evidence: [
        { id: todo.id, kind: "todo", label: "Renew the passport", snippet: "expires in May", gone: false },
        { id: event.id, kind: "event", label: "Passport office", gone: false }
      ],
      basedOn: ["todo: Renew the passport", "event: Passport office"]
    })
    expect(before.because).toContain("own initiative")

    await run(client.api.twinTime.patchTodo({ path: { id: todo.id }, payload: { title: "Renew it now" } }))
    await run(client.api.twinTime.deleteEvent({ path: { id: event.id } }))
    const after = await run(client.api.twinHush.nudgeWhy({ path: { id: nudge.signal.id } }))
    expect(after.evidence.map((item) => [item.kind, item.label, item.gone])).toEqual([
      ["todo", "Renew it now", false],
      ["event", "an event since deleted", true]
    ])
    expect(after.gate).toEqual(before.gate)
  })

  it("says there is no record for a signal raised before the gate", async () => {
    const { client, being } = await registerMember(context.node, context.owner.client)
    const old = await raise(being.id, "From before", "system")
    await inNode(
      context.node,
      Effect.flatMap(SqlClient.SqlClient, (sql) => sql`UPDATE signals SET gate = NULL WHERE id = ${old.signal.id}`)
    )
    expect(await run(client.api.twinHush.nudgeWhy({ path: { id: old.signal.id } }))).toMatchObject({
      gate: null,
      basedOn: [],
      evidence: [],
      source: "test"
    })
  })

  it("answers another being's nudge as missing and a bad id with 400", async () => {
    const { client } = await registerMember(context.node, context.owner.client)
    const owners = await raise(context.owner.being.id, "The owner's", "system")
    expect(await refused(client.api.twinHush.nudgeWhy({ path: { id: owners.signal.id } }))).toMatchObject({
      status: 404,
      body: { error: "not_found" }
    })
    expect((await client.raw("GET", "/api/twin/nudges/bad%20id/why")).status).toBe(400)
    expect((await client.raw("GET", "/api/twin/hush")).status).toBe(200)
  })
})
