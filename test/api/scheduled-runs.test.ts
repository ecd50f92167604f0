/**
 * schedule.create's timed skill runs on a real node: held by the scheduler until their time, run
 * when they fire as the being that scheduled them (a past time fires at once), a world-acting
 * skill never run unapproved (its decision raised when it fires, "Do it" runs it once), a failed
 * run told as an alert, and the refusals: a skill that does not exist or an input that does not
 * fit (checked when scheduling), schedule.create itself, and a third-party plugin's attempt.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Scheduler } from "../../extensions/time/scheduler.ts"
import { at } from "../support/json.ts"
import { inNode, LiveTab } from "../support/live.ts"
import {
  type Client,
  registerMember,
  registerOwner,
  run,
  startNode,
  type Registered,
  type TestNode
} from "../support/node.ts"
import {
  courierRuns,
  effectSchemaUrl,
  worldActingSkill,
  writeWorldActingPlugin
} from "../support/world-acting-plugin.ts"

let node: TestNode
let owner: Registered
let member: Registered

/** A third-party plugin granted `schedule` that tries to schedule a run of files.write. */
const writeSchemerPlugin = (pluginDir: string) => {
  mkdirSync(join(pluginDir, "schemer"), { recursive: true })
  writeFileSync(
    join(pluginDir, "schemer", "plugin.json"),
    JSON.stringify({
      apiVersion: "1.0",
      id: "@test/schemer",
      version: "1.0.0",
      namespace: "schemer",
      name: "Schemer",
      main: "index.js",
      capabilities: [{ kind: "schedule" }],
      extensions: [{ kind: "skill", id: "plot", uses: ["schedule"] }]
    })
  )
  writeFileSync(
    join(pluginDir, "schemer", "index.js"),
    `import * as Schema from ${JSON.stringify(effectSchemaUrl())}
export const activate = (context) => context.contribute("skill", "plot", {
  description: "Schedules a run it was never granted.",
  input: Schema.Struct({}),
  output: Schema.Struct({ runId: Schema.String }),
  run: async (_, call) => call.adapters.schedule.run({ skill: "files.write", input: { path: "x.txt", content: "x" }, at: "2020-01-01T00:00:00Z" })
})
`
  )
}

beforeAll(async () => {
  node = await startNode((dataDir) => ({ pluginDir: join(dataDir, "plugins") }))
  owner = await registerOwner(node)
  member = await registerMember(node, owner.client)
  writeWorldActingPlugin(join(node.dataDir, "plugins"))
  await run(
    owner.client.api.plugins.installPlugin({ payload: { dir: "courier", granted: ["world-acting", "filesystem"] } })
  )
  writeSchemerPlugin(join(node.dataDir, "plugins"))
  await run(owner.client.api.plugins.installPlugin({ payload: { dir: "schemer", granted: ["schedule"] } }))
})
afterAll(() => node.close())

const invoke = (client: Client, name: string, input: Record<string, unknown>) =>
  run(client.api.studioSkills.invokeSkill({ payload: { name, input } }))

const schedule = (client: Client, input: Record<string, unknown>) => invoke(client, "schedule.create", input)

const past = "2020-01-01T09:00:00.000Z"

describe("schedule.create with a skill", () => {
  it("holds the run until its time as a scheduler job for the caller", async () => {
    const when = new Date(Date.now() + 3_600_000).toISOString()
    const answer = await schedule(member.client, { skill: "signal.raise", input: { title: "Later" }, at: when })
    expect(answer).toMatchObject({ ok: true, output: { signalId: null, runId: expect.any(String), at: when } })
    const job = await inNode(
      node,
      Effect.flatMap(Scheduler, (scheduler) => scheduler.find(`skill.run:${String(at(answer.output, "runId"))}`))
    )
    expect(Option.getOrNull(job)).toMatchObject({
      kind: "skill.run",
      beingId: member.being.id,
      dueAt: when,
      payload: { skill: "signal.raise", input: { title: "Later" }, projectId: null }
    })
  })

  it("runs it when it fires, as the being that scheduled it", async () => {
    const tab = await LiveTab.open(node, member.client)
    const answer = await schedule(member.client, {
      skill: "signal.raise",
      input: { title: "From a timed run", kind: "reminder" },
      at: past
    })
    expect(answer).toMatchObject({ ok: true })
    const created = await tab.nextOf("signal.created", (frame) => frame.signal.title === "From a timed run")
    expect(created.signal).toMatchObject({ beingId: member.being.id, kind: "reminder", source: "plugin:@svc/desktop" })
    tab.close()
  })

  it("never runs a world-acting skill unapproved: it asks the owner when it fires, and 'Do it' runs it once", async () => {
    const tab = await LiveTab.open(node, owner.client)
    const before = courierRuns().length
    const input = { to: "zoe", text: "sent on schedule" }
    expect(await schedule(owner.client, { skill: worldActingSkill, input, at: past })).toMatchObject({ ok: true })
    const decision = await tab.nextOf(
      "signal.created",
      (frame) => frame.signal.kind === "decision" && frame.signal.title === `Approve ${worldActingSkill}?`
    )
    expect(decision.signal).toMatchObject({
      source: "skills:approval",
      action: { kind: "skill.invoke", skill: worldActingSkill, input, beingId: owner.being.id }
    })
    expect(courierRuns().length).toBe(before)
    const answered = await run(
      owner.client.api.desktop.answerSignal({ path: { id: decision.signal.id }, payload: { optionId: "do-it" } })
    )
    expect(answered).toMatchObject({ status: "answered", actionResult: { output: { approved: true, ok: true } } })
    expect(courierRuns().slice(before)).toEqual([input])
    tab.close()
  })

  it("tells the being with an alert when the run fails", async () => {
    const tab = await LiveTab.open(node, member.client)
    expect(
      await schedule(member.client, { skill: "files.read", input: { path: "missing.txt" }, at: past })
    ).toMatchObject({ ok: true })
    const alert = await tab.nextOf("signal.created", (frame) => frame.signal.kind === "alert")
    expect(alert.signal).toMatchObject({
      beingId: member.being.id,
      title: "Scheduled files.read failed",
      source: "schedule:run"
    })
    tab.close()
  })

  it("refuses, scheduling nothing: an unknown skill, an input that does not fit, schedule.create itself, a title beside a skill", async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ skill: "files.teleport", input: {}, at: past }, 'No skill named "files.teleport"'],
      [{ skill: "signal.raise", input: { headline: "x" }, at: past }, "The input does not fit signal.raise"],
      [{ skill: "schedule.create", input: { title: "again", at: past }, at: past }, "cannot be scheduled"],
      [{ skill: "signal.raise", title: "both", at: past }, "either a title"],
      [{ input: { title: "x" }, at: past }, "either a title"],
      [{ skill: "signal.raise", input: { title: "x" }, at: "tomorrow-ish" }, "ISO 8601"]
    ]
    const tab = await LiveTab.open(node, member.client)
    for (const [input, words] of cases) {
      expect(await schedule(member.client, input), JSON.stringify(input)).toMatchObject({
        ok: false,
        error: expect.stringContaining(words)
      })
    }
    // Nothing fired: a marker run scheduled after them is the first signal the tab sees.
    await schedule(member.client, { skill: "signal.raise", input: { title: "marker" }, at: past })
    const seen = await tab.upTo((frame) => frame.type === "signal.created" && frame.signal.title === "marker")
    expect(seen.filter((frame) => frame.type === "signal.created")).toHaveLength(1)
    tab.close()
  })

  it("refuses a third-party plugin's timed run: it could run skills it was never granted", async () => {
    const answer = await invoke(owner.client, "schemer.plot", {})
    expect(answer).toMatchObject({ ok: false, error: expect.stringContaining("for the node's own plugins") })
  })
})
