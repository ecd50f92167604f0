/**
 * The calendar through real HTTP: events once and repeating (RRULE occurrences expanded inside
 * the asked range), the agenda merging open due-dated signals no event links, a reminder held
 * until its time (no live event before then, a release job at the event's start), PATCH moving
 * it, DELETE taking it back; and the refusals: missing or reversed range, a rule that is not
 * RFC 5545, an end before the start, bad ids (400), another being's event (404).
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { beforeAll, describe, expect, it } from "vitest"
import { SignalInput } from "../../actors/being/contract/signal.ts"
import { Scheduler } from "../../extensions/time/scheduler.ts"
import { Signals } from "../../extensions/desktop/contract/signals.ts"
import { inNode, LiveTab } from "../support/live.ts"
import { apiError, type Client, nodeWithOwner, refused, registerMember, run, type Registered } from "../support/node.ts"

const context = nodeWithOwner()
let member: Registered

beforeAll(async () => {
  member = await registerMember(context.node, context.owner.client)
})

const agendaOf = (client: Client, from: string, to: string) =>
  run(client.api.twinTime.agenda({ urlParams: { from, to } }))

const raiseDue = (beingId: string, title: string, dueAt: string) =>
  inNode(
    context.node,
    Effect.flatMap(Signals, (signals) =>
      signals.raise(beingId, Schema.decodeUnknownSync(SignalInput)({ title, dueAt }), "test", "system")
    )
  )

const openTitles = async (client: Client) =>
  (await run(client.api.desktop.listSignals({ urlParams: { status: "open", limit: 100, offset: 0 } }))).map(
    (signal) => signal.title
  )

const releaseJob = (signalId: string) =>
  inNode(
    context.node,
    Effect.flatMap(Scheduler, (scheduler) => scheduler.find(`signal.release:${signalId}`))
  ).then(Option.getOrNull)

describe("calendar events", () => {
  it("creates, reads, patches and deletes an event", async () => {
    const api = member.client.api.twinTime
    const event = await run(
      api.createEvent({
        payload: {
          title: "Dentist",
          startAt: "2031-02-03T09:00:00+01:00",
          endAt: "2031-02-03T09:30:00+01:00",
          location: "High St"
        }
      })
    )
    expect(event).toMatchObject({
      beingId: member.being.id,
      title: "Dentist",
      description: "",
      location: "High St",
      startAt: "2031-02-03T08:00:00.000Z",
      endAt: "2031-02-03T08:30:00.000Z",
      allDay: false,
      recurrence: null,
      projectId: null,
      signalId: null
    })
    expect(await run(api.getEvent({ path: { id: event.id } }))).toEqual(event)
    const patched = await run(
      api.patchEvent({ path: { id: event.id }, payload: { title: "Dentist (moved)", endAt: null } })
    )
    expect(patched).toMatchObject({
      title: "Dentist (moved)",
      location: "High St",
      endAt: null,
      startAt: event.startAt
    })
    expect(await run(api.deleteEvent({ path: { id: event.id } }))).toEqual({ ok: true })
    expect((await refused(api.getEvent({ path: { id: event.id } }))).status).toBe(404)
  })

  it("expands a repeating event inside the range and merges open due-dated signals no event links", async () => {
    const { client, being } = await registerMember(context.node, context.owner.client)
    const weekly = await run(
      client.api.twinTime.createEvent({
        payload: {
          title: "Standup",
          startAt: "2031-01-06T09:00:00Z",
          endAt: "2031-01-06T09:15:00Z",
          recurrence: "FREQ=WEEKLY;COUNT=5"
        }
      })
    )
    await run(client.api.twinTime.createEvent({ payload: { title: "Outside", startAt: "2031-03-01T09:00:00Z" } }))
    await raiseDue(being.id, "Pay the rent", "2031-01-15T12:00:00Z")
    await raiseDue(being.id, "Too late", "2031-02-15T12:00:00Z")
    const agenda = await agendaOf(client, "2031-01-10T00:00:00Z", "2031-01-25T00:00:00Z")
    expect(agenda.map((entry) => [entry.origin, entry.title, entry.startAt])).toEqual([
      ["event", "Standup", "2031-01-13T09:00:00.000Z"],
      ["signal", "Pay the rent", "2031-01-15T12:00:00.000Z"],
      ["event", "Standup", "2031-01-20T09:00:00.000Z"]
    ])
    expect(agenda[0]).toMatchObject({
      id: `${weekly.id}@2031-01-13T09:00:00.000Z`,
      eventId: weekly.id,
      endAt: "2031-01-13T09:15:00.000Z"
    })
    // COUNT=5 ends on 3 February.
    const february = await agendaOf(client, "2031-02-01T00:00:00Z", "2031-02-28T00:00:00Z")
    expect(february.filter((entry) => entry.title === "Standup").map((entry) => entry.startAt)).toEqual([
      "2031-02-03T09:00:00.000Z"
    ])
  })

  it("repeats in the being's profile time zone: a weekly 09:00 in Paris stays 09:00 local across the spring change", async () => {
    const { client } = await registerMember(context.node, context.owner.client)
    await run(client.api.twin.patchProfile({ payload: { timezone: "Europe/Paris" } }))
    const weekly = await run(
      client.api.twinTime.createEvent({
        payload: {
          title: "Swim",
          startAt: "2031-03-17T09:00:00+01:00",
          endAt: "2031-03-17T10:00:00+01:00",
          recurrence: "FREQ=WEEKLY;BYDAY=MO"
        }
      })
    )
    // Summer time begins on Sunday 30 March 2031: 09:00 local is 08:00 UTC before, 07:00 UTC after.
    const agenda = await agendaOf(client, "2031-03-20T00:00:00Z", "2031-04-08T00:00:00Z")
    expect(agenda.map((entry) => [entry.id, entry.startAt, entry.endAt])).toEqual([
      [`${weekly.id}@2031-03-24T08:00:00.000Z`, "2031-03-24T08:00:00.000Z", "2031-03-24T09:00:00.000Z"],
      [`${weekly.id}@2031-03-31T07:00:00.000Z`, "2031-03-31T07:00:00.000Z", "2031-03-31T08:00:00.000Z"],
      [`${weekly.id}@2031-04-07T07:00:00.000Z`, "2031-04-07T07:00:00.000Z", "2031-04-07T08:00:00.000Z"]
    ])
    // The same rule of a being whose profile keeps UTC repeats at 08:00 UTC.
    const utc = await run(
      member.client.api.twinTime.createEvent({
        payload: { title: "Swim (UTC)", startAt: "2031-03-17T08:00:00Z", recurrence: "FREQ=WEEKLY;BYDAY=MO" }
      })
    )
    expect(
      (await agendaOf(member.client, "2031-03-30T00:00:00Z", "2031-04-01T00:00:00Z"))
        .filter((entry) => entry.eventId === utc.id)
        .map((entry) => entry.startAt)
    ).toEqual(["2031-03-31T08:00:00.000Z"])
  })

  it("holds a reminder until the event starts: linked, off the desktop, no live event, released by the scheduler then", async () => {
    const { client, being } = await registerMember(context.node, context.owner.client)
    const tab = await LiveTab.open(context.node, client)
    const startAt = new Date(Date.now() + 3_600_000).toISOString()
    const event = await run(client.api.twinTime.createEvent({ payload: { title: "Call mum", startAt, remind: true } }))
    expect(event.signalId).not.toBeNull()
    const job = await releaseJob(event.signalId!)
    expect(job).toMatchObject({ kind: "signal.release", beingId: being.id, dueAt: startAt })
    // Scheduling it is a `scheduled` twin activity, published to the being's tabs.
    const summary = `Scheduled a reminder "Call mum" for ${new Date(startAt).toUTCString().replace(":00 GMT", " UTC")}`
    expect(await tab.nextOf("twin.activity", (frame) => frame.kind === "scheduled")).toMatchObject({ summary })
    expect(await run(client.api.twin.listActivity({ urlParams: { kind: "scheduled", offset: 0 } }))).toEqual([
      expect.objectContaining({ beingId: being.id, kind: "scheduled", summary })
    ])

    await raiseDue(being.id, "marker", "2031-01-01T00:00:00Z")
    await tab.nextOf("signal.created", (frame) => frame.signal.title === "marker")
    expect(tab.frames.some((frame) => frame.type === "signal.created" && frame.signal.title === "Call mum")).toBe(false)
    expect(await openTitles(client)).toEqual(["marker"])
    // The agenda shows the reminder once: as its event.
    const agenda = await agendaOf(
      client,
      new Date(Date.now() - 60_000).toISOString(),
      new Date(Date.now() + 7_200_000).toISOString()
    )
    expect(agenda.map((entry) => [entry.origin, entry.title, entry.signalId])).toEqual([
      ["event", "Call mum", event.signalId]
    ])

    // Moving the event moves its reminder: a fresh held signal at the new time.
    const later = new Date(Date.now() + 7_200_000).toISOString()
    const moved = await run(client.api.twinTime.patchEvent({ path: { id: event.id }, payload: { startAt: later } }))
    expect(moved.signalId).not.toBe(event.signalId)
    expect(await releaseJob(event.signalId!)).toBeNull()
    expect(await releaseJob(moved.signalId!)).toMatchObject({ dueAt: later })
    expect(await run(client.api.twin.listActivity({ urlParams: { kind: "scheduled", offset: 0 } }))).toHaveLength(2)

    // Deleting the event takes the reminder back.
    await run(client.api.twinTime.deleteEvent({ path: { id: event.id } }))
    expect(await releaseJob(moved.signalId!)).toBeNull()
    const dismissed = await run(
      client.api.desktop.listSignals({ urlParams: { status: "dismissed", limit: 100, offset: 0 } })
    )
    expect(dismissed.map((signal) => signal.id)).toContain(moved.signalId)
    await tab.close()
  })

  it("delivers at once a reminder whose time has passed, with action kind schedule.fire", async () => {
    const { client } = await registerMember(context.node, context.owner.client)
    const tab = await LiveTab.open(context.node, client)
    const event = await run(
      client.api.twinTime.createEvent({
        payload: { title: "Already begun", startAt: "2020-01-01T09:00:00Z", remind: true }
      })
    )
    const created = await tab.nextOf("signal.created", (frame) => frame.signal.id === event.signalId)
    expect(created.signal).toMatchObject({
      kind: "reminder",
      title: "Already begun",
      source: "calendar",
      dueAt: "2020-01-01T09:00:00.000Z"
    })
    expect(created.signal.action).toMatchObject({ kind: "schedule.fire", eventId: event.id })
    await tab.close()
  })
})

describe("calendar refusals", () => {
  it("needs both ends of the range, in order", async () => {
    for (const query of [
      "",
      "?from=2031-01-01T00:00:00Z",
      "?to=2031-01-01T00:00:00Z",
      "?from=2031-02-01T00:00:00Z&to=2031-01-01T00:00:00Z",
      "?from=yesterday&to=2031-01-01T00:00:00Z"
    ]) {
      const answer = await member.client.raw("GET", `/api/twin/calendar${query}`)
      expect(answer.status, query).toBe(400)
      expect(apiError(answer).error).toBe("invalid_request")
    }
  })

  it("refuses a rule that is not RFC 5545 and an end before the start, writing nothing", async () => {
    const api = member.client.api.twinTime
    const badRule = await refused(
      api.createEvent({
        payload: { title: "Weird", startAt: "2031-01-01T09:00:00Z", recurrence: "every other tuesday" }
      })
    )
    expect(badRule).toMatchObject({ status: 400, body: { error: "invalid_recurrence" } })
    const badFreq = await refused(
      api.createEvent({ payload: { title: "Weird", startAt: "2031-01-01T09:00:00Z", recurrence: "FREQ=SOMETIMES" } })
    )
    expect(badFreq).toMatchObject({ status: 400, body: { error: "invalid_recurrence" } })
    const backwards = await refused(
      api.createEvent({
        payload: { title: "Backwards", startAt: "2031-01-01T09:00:00Z", endAt: "2031-01-01T08:00:00Z" }
      })
    )
    expect(backwards.status).toBe(400)
    const agenda = await agendaOf(member.client, "2030-12-31T00:00:00Z", "2031-01-02T00:00:00Z")
    expect(agenda).toEqual([])
  })

  it("answers another being's event as missing and a bad id with 400", async () => {
    const owners = await run(
      context.owner.client.api.twinTime.createEvent({ payload: { title: "Private", startAt: "2031-01-01T09:00:00Z" } })
    )
    const api = member.client.api.twinTime
    const path = { id: owners.id }
    for (const answer of await Promise.all([
      refused(api.getEvent({ path })),
      refused(api.patchEvent({ path, payload: { title: "mine now" } })),
      refused(api.deleteEvent({ path }))
    ]))
      expect(answer).toMatchObject({ status: 404, body: { error: "not_found" } })
    expect(await run(context.owner.client.api.twinTime.getEvent({ path }))).toEqual(owners)
    expect((await member.client.raw("GET", "/api/twin/calendar/bad%20id")).status).toBe(400)
    expect((await member.client.raw("POST", "/api/twin/calendar", { title: "x", startAt: "soon" })).status).toBe(400)
  })
})
