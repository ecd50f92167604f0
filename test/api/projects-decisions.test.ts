/**
 * A run whose agent asked for a world-acting call waits for the owner's decision: the step is `waiting` with the
 * decision's signal, the run's other steps go on (even with one step at a time), and "Do it" (or "No") hands the
 * result (or the refusal) back into the same tool loop, which goes on from there. A restart while waiting keeps
 * waiting, and no model call is made twice.
 */
import { join } from "node:path"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { afterAll, describe, expect, it } from "vitest"
import type { ProjectDetail } from "../../actors/project/contract/records.ts"
import { remoteDefault } from "../support/models.ts"
import { type Client, registerOwner, run, startNode, type TestNode } from "../support/node.ts"
import { startOpenAiServer, type OpenAiServer } from "../support/openai-server.ts"
import type { ReceivedRequest } from "../support/openai-replies.ts"
import { courierRuns, worldActingSkill, writeWorldActingPlugin } from "../support/world-acting-plugin.ts"
import { callsFor, isPlannerCall, scriptStudio } from "./projects-scripted.ts"
import { startBrief, untilSettled } from "./projects-support.ts"

const closing: Array<() => Promise<void>> = []
afterAll(async () => {
  for (const close of closing.reverse()) await close()
})

const announce = "Announce the tasting"
const menu = "Write the menu"
const plan = {
  tasks: [
    { id: "announce", title: announce, role: "marketer", skills: [worldActingSkill] },
    { id: "menu", title: menu, role: "writer" }
  ]
}
const sending = { to: "tea-club", text: "Tasting on Friday" }

/**
 * A node over a data folder of the test's (a restart starts another over it, at the same address, so the owner's
 * cookie still reaches it), running one step at a time: a waiting step must not hold the run up.
 */
const courierNode = async (server: OpenAiServer, dataDir: string, port = 0) => {
  const node: TestNode = await startNode(
    { ...remoteDefault(server.baseUrl), pluginDir: join(dataDir, "plugins"), studioTaskConcurrency: 1, port },
    { dataDir }
  )
  closing.push(node.close)
  return node
}

const withCourier = async (server: OpenAiServer) => {
  const dataDir = mkdtempSync(join(tmpdir(), "decisions-"))
  closing.unshift(async () => rmSync(dataDir, { recursive: true, force: true }))
  const node = await courierNode(server, dataDir)
  const owner = await registerOwner(node)
  writeWorldActingPlugin(join(node.dataDir, "plugins"))
  await run(
    owner.client.api.plugins.installPlugin({ payload: { dir: "courier", granted: ["world-acting", "filesystem"] } })
  )
  return { node, owner }
}

const models = async () => {
  const server = await startOpenAiServer()
  closing.push(server.close)
  scriptStudio(server, {
    plan,
    extraCall: (title) => (title === announce ? { name: "courier__send", arguments: sending } : null)
  })
  return server
}

const stepOf = (detail: ProjectDetail, title: string) => detail.tasks.find((task) => task.title === title)!

/** The run as it waits: the announcement's step waiting on a decision, the menu done meanwhile. */
const untilWaiting = (client: Client, id: string) =>
  untilSettled(
    client,
    id,
    (detail) => stepOf(detail, announce)?.status === "waiting" && stepOf(detail, menu)?.status === "done"
  )

/** What the agent's conversation says its world-acting call gave, in the model call after the decision. */
const toolAnswer = (request: ReceivedRequest | undefined) => {
  const message = request?.body.messages?.find((found) => found.role === "tool" && found.tool_call_id === "extra")
  return message === undefined ? undefined : (JSON.parse(String(message.content)) as unknown)
}

const answer = (client: Client, signalId: string, optionId: "do-it" | "no") =>
  run(client.api.desktop.answerSignal({ path: { id: signalId }, payload: { optionId } }))

describe("a run that needs an approved act", () => {
  it("waits for the decision while its other steps go on; 'Do it' hands the result back into the same loop", async () => {
    const server = await models()
    const { owner } = await withCourier(server)
    const runsBefore = courierRuns().length
    const started = await startBrief(owner.client, "Write the menu and send the tasting announcement")

    const waiting = await untilWaiting(owner.client, started.id)
    expect(waiting.project.status).toBe("running")
    const step = stepOf(waiting, announce)
    expect(step.decisionSignalId).toEqual(expect.any(String))
    expect(courierRuns().length).toBe(runsBefore)
    expect(callsFor(server, announce)).toHaveLength(1)

    await answer(owner.client, step.decisionSignalId!, "do-it")
    const detail = await untilSettled(owner.client, started.id)
    expect(detail.project.status).toBe("done")
    expect(stepOf(detail, announce)).toMatchObject({ status: "done", decisionSignalId: null })
    expect(courierRuns().slice(runsBefore)).toEqual([sending])
    // The model heard the call's result as the answer to its own tool call, and was never asked the same thing twice.
    const calls = callsFor(server, announce)
    expect(toolAnswer(calls[1])).toMatchObject({ ok: true })
    expect(calls.filter((call) => toolAnswer(call) === undefined)).toHaveLength(1)
    expect(server.requestsFor("chat").filter(isPlannerCall)).toHaveLength(1)
  })

  it("'No' hands the refusal back: the agent goes on without the act", async () => {
    const server = await models()
    const { owner } = await withCourier(server)
    const runsBefore = courierRuns().length
    const started = await startBrief(owner.client, "Write the menu and send the tasting announcement")
    const step = stepOf(await untilWaiting(owner.client, started.id), announce)

    await answer(owner.client, step.decisionSignalId!, "no")
    const detail = await untilSettled(owner.client, started.id)
    expect(detail.project.status).toBe("done")
    expect(courierRuns().length).toBe(runsBefore)
    expect(toolAnswer(callsFor(server, announce)[1])).toEqual({
      ok: false,
      error: "The owner said no; the call did not run."
    })
  })

  it("keeps waiting across a restart and goes on after 'Do it' without calling the model again", async () => {
    const server = await models()
    const { node, owner } = await withCourier(server)
    const started = await startBrief(owner.client, "Write the menu and send the tasting announcement")
    const step = stepOf(await untilWaiting(owner.client, started.id), announce)
    const callsBefore = server.requestsFor("chat").length
    await node.close()

    await courierNode(server, node.dataDir, Number(new URL(node.url).port))
    const client = owner.client
    const resumed = await untilSettled(client, started.id, (detail) => stepOf(detail, announce).status === "waiting")
    expect(stepOf(resumed, announce).decisionSignalId).toBe(step.decisionSignalId)
    expect(server.requestsFor("chat")).toHaveLength(callsBefore)

    await answer(client, step.decisionSignalId!, "do-it")
    const detail = await untilSettled(client, started.id)
    expect(detail.project.status).toBe("done")
    const calls = callsFor(server, announce)
    expect(calls.filter((call) => toolAnswer(call) === undefined)).toHaveLength(1)
    expect(toolAnswer(calls[1])).toMatchObject({ ok: true })
  })
})
