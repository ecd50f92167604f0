/**
 * The keyless path: a node whose every tier is the scripted server in demo mode (what
 * `npm run models:scripted` serves) runs each seeded generator, filled in as a newcomer would
 * (its required fields only), to done, every step's deliverable passing its checks on the first
 * attempt; and a brief too. Nothing here scripts a reply: the demo reads what each call asks.
 */
import * as Option from "effect/Option"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { generatorCatalogue } from "../../seeds/generators/index.ts"
import { noModelSettings } from "../support/models.ts"
import { registerOwner, run, startNode, type Registered, type TestNode } from "../support/node.ts"
import { type OpenAiServer, startOpenAiServer } from "../support/openai-server.ts"
import type { ProjectDetail } from "../../actors/project/contract/records.ts"
import { at } from "../support/json.ts"
import { startBrief, startGenerator, untilSettled } from "./projects-support.ts"

let models: OpenAiServer
let node: TestNode
let owner: Registered

beforeAll(async () => {
  models = await startOpenAiServer({ demo: true })
  // Only the base URL, as the README says: a loopback address is a local binding, no key.
  node = await startNode({ ...noModelSettings, llmBaseUrl: Option.some(models.baseUrl) })
  owner = await registerOwner(node)
})

afterAll(async () => {
  await node?.close()
  await models?.close()
})

/** What a newcomer types: each required field's placeholder (the form shows it as the example). */
const requiredInputs = (schema: Record<string, unknown>): Record<string, unknown> => {
  const required = (at(schema, "required") ?? []) as ReadonlyArray<string>
  return Object.fromEntries(
    required.map((key) => [key, at(schema, "properties", key, "x-placeholder") ?? "A demo value"])
  )
}

/** Waits for the run to end, saying "Do it" to each decision a step waits on (the small web app's build). */
const settledApproving = async (id: string): Promise<ProjectDetail> => {
  const answered = new Set<string>()
  let last: ProjectDetail | undefined
  for (const deadline = Date.now() + 30_000; Date.now() < deadline; ) {
    last = await run(owner.client.api.studioProjects.getProject({ path: { id } }))
    if (["done", "failed", "cancelled"].includes(last.project.status)) return last
    for (const task of last.tasks) {
      const signalId = task.decisionSignalId
      if (task.status !== "waiting" || signalId === null || answered.has(signalId)) continue
      answered.add(signalId)
      await run(owner.client.api.desktop.answerSignal({ path: { id: signalId }, payload: { optionId: "do-it" } }))
    }
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  throw new Error(`the run did not end within 30 s: ${JSON.stringify(last?.project)}`)
}

const expectEveryStepPassed = (detail: ProjectDetail) => {
  expect(detail.project.error).toBeNull()
  expect(detail.project.status).toBe("done")
  for (const task of detail.tasks) {
    expect(task.status, task.title).toBe("done")
    expect(task.output, task.title).toMatchObject({ ok: true, failures: [], repairs: 0 })
  }
  expect(detail.review).toMatchObject({ verdict: "pass-with-notes" })
}

describe("the scripted server's demo mode", () => {
  it.each(generatorCatalogue.map((seed) => [seed.slug, seed] as const))(
    "runs the seeded generator %s to done, every check passing",
    async (slug, seed) => {
      models.reset()
      const started = await startGenerator(owner.client, slug, requiredInputs(seed.inputsSchema))
      const detail = await settledApproving(started.id)
      expectEveryStepPassed(detail)
      // Every step's named file is among the outputs.
      const paths = detail.project.outputs.map((output) => output.path)
      for (const step of seed.steps)
        if (step.deliverable?.file !== undefined) expect(paths).toContain(step.deliverable.file)
      // Steps that must cite sources searched first, as a model with web.search would.
      const searched = models
        .requestsFor("chat")
        .some((request) =>
          (request.body.messages ?? []).some((message) =>
            message.tool_calls?.some((call) => call.function.name === "web__search")
          )
        )
      expect(searched).toBe(true)
    }
  )

  it("runs a brief to done: the planner's task and the research step the plan repair adds", async () => {
    const started = await startBrief(owner.client, "A short note on green tea for a curious reader")
    const detail = await untilSettled(owner.client, started.id, undefined, 30_000)
    expectEveryStepPassed(detail)
    expect(detail.tasks.map((task) => task.title)).toEqual([
      "Research the brief",
      "Write: A short note on green tea for a curious reader"
    ])
  })

  it("answers a chat that is not the studio's as before", async () => {
    const answer = await fetch(`${models.baseUrl}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "any", messages: [{ role: "user", content: "Hello there" }] })
    })
    expect((await answer.json()).choices[0].message.content).toBe("A scripted reply from any to: Hello there")
  })
})
