/**
 * schedule.create on a real node, over POST /api/studio/skills/invoke: a reminder for the caller,
 * held by the scheduler until its time (off the desktop, a release job at that time), delivered
 * at once when its time has passed, and refused plainly for a time that is not one.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { describe, expect, it } from "vitest"
import { Scheduler } from "../../extensions/time/scheduler.ts"
import { at } from "../support/json.ts"
import { inNode } from "../support/live.ts"
import { type Client, nodeWithOwner, registerMember, run } from "../support/node.ts"

const context = nodeWithOwner()

const invoke = (client: Client, input: Record<string, unknown>) =>
  run(client.api.studioSkills.invokeSkill({ payload: { name: "schedule.create", input } }))

const openOf = (client: Client) =>
  run(client.api.desktop.listSignals({ urlParams: { status: "open", limit: 100, offset: 0 } }))

describe("schedule.create", () => {
  it("is listed as a skill of its own plugin", async () => {
    const skills = await run(context.owner.client.api.studioSkills.listSkills())
    expect(skills.find((skill) => skill.name === "schedule.create")).toMatchObject({
      family: "schedule",
      pluginId: "@svc/schedule",
      worldActing: false,
      inputSchema: {
        required: ["at"],
        properties: { title: { type: "string" }, skill: { type: "string" }, input: { type: "object" } }
      }
    })
  })

  it("holds a reminder for the caller until its time, through the scheduler", async () => {
    const { client, being } = await registerMember(context.node, context.owner.client)
    const when = new Date(Date.now() + 3_600_000).toISOString()
    const answer = await invoke(client, { title: "Stretch", body: "Stand up for a minute.", at: when })
    expect(answer).toMatchObject({ ok: true, output: { signalId: expect.any(String), at: when } })
    const signalId = String(at(answer.output, "signalId"))
    expect(await openOf(client)).toEqual([])
    const job = await inNode(
      context.node,
      Effect.flatMap(Scheduler, (scheduler) => scheduler.find(`signal.release:${signalId}`))
    )
    expect(Option.getOrNull(job)).toMatchObject({ kind: "signal.release", beingId: being.id, dueAt: when })
    expect(await run(client.api.twin.listActivity({ urlParams: { kind: "scheduled", offset: 0 } }))).toEqual([
      expect.objectContaining({
        beingId: being.id,
        summary: `Scheduled a reminder "Stretch" for ${new Date(when).toUTCString().replace(":00 GMT", " UTC")}`
      })
    ])
  })

  it("delivers at once a reminder whose time has passed, as a reminder with action kind schedule.fire", async () => {
    const { client } = await registerMember(context.node, context.owner.client)
    const answer = await invoke(client, { title: "Overdue", at: "2020-01-01T09:00:00Z" })
    expect(answer).toMatchObject({ ok: true })
    expect(await openOf(client)).toMatchObject([
      {
        id: at(answer.output, "signalId"),
        kind: "reminder",
        title: "Overdue",
        source: "plugin:@svc/schedule",
        action: { kind: "schedule.fire" }
      }
    ])
  })

  it("refuses a time that is not one, scheduling nothing", async () => {
    const { client } = await registerMember(context.node, context.owner.client)
    const answer = await invoke(client, { title: "When?", at: "after lunch" })
    expect(answer.ok).toBe(false)
    expect(await openOf(client)).toEqual([])
    expect(await run(client.api.twin.listActivity({ urlParams: { kind: "scheduled", offset: 0 } }))).toEqual([])
  })
})
