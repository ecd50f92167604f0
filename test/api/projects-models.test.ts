/**
 * A project run where models or the world push back: no model configured, a spend ceiling, and
 * an agent's call of a world-acting skill that waits for the owner's "Do it".
 */
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { noModelSettings, remoteDefault } from "../support/models.ts"
import { at } from "../support/json.ts"
import { type Client, refused, registerOwner, run, startNode, type TestNode } from "../support/node.ts"
import { startOpenAiServer, type OpenAiServer } from "../support/openai-server.ts"
import { courierRuns, worldActingSkill, writeWorldActingPlugin } from "../support/world-acting-plugin.ts"
import { scriptStudio } from "./projects-scripted.ts"
import { startBrief, untilSettled } from "./projects-support.ts"

const openSignals = (client: Client) =>
  run(client.api.desktop.listSignals({ urlParams: { status: "open", limit: 100, offset: 0 } }))

const closing: Array<() => Promise<void>> = []
afterAll(async () => {
  for (const close of closing.reverse()) await close()
})

const startWith = async (settings: Parameters<typeof startNode>[0]) => {
  const node: TestNode = await startNode(settings)
  closing.push(node.close)
  return { node, owner: await registerOwner(node) }
}

const models = async (): Promise<OpenAiServer> => {
  const server = await startOpenAiServer()
  closing.push(server.close)
  return server
}

describe("a run with no model configured", () => {
  it("fails at once with the plain reason and an alert on the owner's desktop", async () => {
    const { owner } = await startWith(noModelSettings)
    const started = await startBrief(owner.client, "Write a limerick about kettles")
    const detail = await untilSettled(owner.client, started.id, undefined, 5000)
    expect(detail.project.status).toBe("failed")
    expect(detail.project.error).toMatch(
      /^The planner could not be called: No model is bound to the 'strong' tier yet: bind the tier in Settings → Models/
    )
    const signals = await openSignals(owner.client)
    expect(signals).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: "alert", source: `studio:${started.id}`, body: detail.project.error })
      ])
    )
  })
})

describe("a run that meets a spend ceiling", () => {
  it("is refused the call, alerts the owner, and fails with a clear error", async () => {
    const server = await models()
    scriptStudio(server)
    const { owner } = await startWith({ ...remoteDefault(server.baseUrl), spendMaxCallUsd: 0.000_000_1 })
    const started = await startBrief(owner.client, "Write a haiku about kettles")
    const detail = await untilSettled(owner.client, started.id)
    expect(detail.project.status).toBe("failed")
    expect(detail.project.error).toContain("The planner could not be called")
    expect(server.requestsFor("chat")).toEqual([])
    const titles = (await openSignals(owner.client)).map((signal) => signal.title)
    expect(titles).toEqual(
      expect.arrayContaining([
        "Spend ceiling reached: a model call was refused",
        `Project failed: ${detail.project.title}`
      ])
    )
  })
})

describe("an agent's world-acting call", () => {
  it("waits for the owner's decision; 'Do it' runs it once and a second answer is refused", async () => {
    const server = await models()
    const { node, owner } = await startWith((dataDir) => ({
      ...remoteDefault(server.baseUrl),
      pluginDir: join(dataDir, "plugins")
    }))
    writeWorldActingPlugin(join(node.dataDir, "plugins"))
    await run(
      owner.client.api.plugins.installPlugin({ payload: { dir: "courier", granted: ["world-acting", "filesystem"] } })
    )
    scriptStudio(server, {
      plan: {
        tasks: [
          { id: "announce", title: "Announce the tasting", role: "marketer", skills: [worldActingSkill, "web.search"] }
        ]
      },
      extraCall: (title) =>
        title === "Announce the tasting"
          ? { name: "courier__send", arguments: { to: "tea-club", text: "Tasting on Friday" } }
          : null
    })
    const runsBefore = courierRuns().length
    const started = await startBrief(owner.client, "Write and send the tasting announcement")
    // The step waits for the decision (projects-decisions.test.ts follows the run through it).
    await untilSettled(owner.client, started.id, (detail) => detail.tasks[0]?.status === "waiting")
    expect(courierRuns().length).toBe(runsBefore)

    const trace = await run(owner.client.api.studioProjects.projectTrace({ path: { id: started.id }, urlParams: {} }))
    const waiting = trace.find((event) => event.kind === "tool.result" && at(event.data, "name") === worldActingSkill)
    expect(waiting?.data).toMatchObject({ ok: false, approval: { status: "waiting", signalId: expect.any(String) } })
    const decision = (await openSignals(owner.client)).find(
      (signal) => signal.id === at(waiting?.data, "approval", "signalId")
    )!
    expect(decision).toMatchObject({
      kind: "decision",
      action: { skill: worldActingSkill, input: { to: "tea-club", text: "Tasting on Friday" }, projectId: started.id }
    })

    const answer = () =>
      owner.client.api.desktop.answerSignal({ path: { id: decision.id }, payload: { optionId: "do-it" } })
    await run(answer())
    expect(courierRuns().slice(runsBefore)).toEqual([{ to: "tea-club", text: "Tasting on Friday" }])
    const again = await refused(answer())
    expect(again.status).toBe(409)
    expect(courierRuns().length).toBe(runsBefore + 1)
  })
})
