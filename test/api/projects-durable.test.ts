/**
 * A project run survives kill -9: a real node in a child process (host/bundled-start.ts over a data
 * folder) runs a generator against the scripted OpenAI server in this process; it is killed with
 * SIGKILL while the second task waits on its model, started again over the same folder, and the
 * run completes without the first task's model calls being made a second time.
 */
import { afterAll, beforeAll, expect, it } from "vitest"
import { startChildNode, type ChildNode } from "../support/child-node.ts"
import { Client, person, run } from "../support/node.ts"
import { startOpenAiServer, type OpenAiServer } from "../support/openai-server.ts"
import { callsFor, scriptStudio } from "./projects-scripted.ts"
import { startGenerator, twoStepGenerator, untilSettled } from "./projects-support.ts"

let models: OpenAiServer
let first: ChildNode | undefined

beforeAll(async () => {
  models = await startOpenAiServer()
})
afterAll(async () => {
  await models.close()
  // The first node made the data folder both nodes ran over.
  await first?.close()
})

const modelEnv = () => ({ LLM_BASE_URL: models.baseUrl, LLM_API_KEY: "sk-test-durable", LLM_LOCAL: "false" })

it("continues after SIGKILL from the last finished task and never pays for it again", async () => {
  scriptStudio(models, { delayMs: (title) => (title.startsWith("Report") ? 60_000 : 0) })
  first = await startChildNode({ env: modelEnv() })
  const { url, ownerCode } = first
  const owner = new Client(url)
  await run(owner.api.authPublic.register({ payload: person(ownerCode) }))
  const generator = await twoStepGenerator(owner)
  const started = await startGenerator(owner, generator.id, { topic: "genmaicha" })

  // The report's first model call is under way (and hangs): the notes task finished before it started.
  await untilSettled(owner, started.id, () => callsFor(models, "Report on genmaicha").length > 0)
  const notesCalls = callsFor(models, "Notes on genmaicha").length
  expect(notesCalls).toBe(2)
  expect(await first.kill()).toBe("SIGKILL")

  scriptStudio(models)
  // The same folder at the same address: the owner's client and cookie reach the second node.
  const second = await startChildNode({ env: modelEnv(), dataDir: first.dataDir, port: first.port, ownerCode })
  try {
    const detail = await untilSettled(owner, started.id, undefined, 30_000)
    expect(detail.project.status).toBe("done")
    expect(detail.tasks.map((task) => task.status)).toEqual(["done", "done"])
    expect(callsFor(models, "Notes on genmaicha").length).toBe(notesCalls)
    expect(callsFor(models, "Report on genmaicha").length).toBeGreaterThanOrEqual(3)
    expect(detail.project.outputs.map((output) => output.path)).toEqual([
      "notes-on-genmaicha.md",
      "report-on-genmaicha.md"
    ])
  } finally {
    await second.close()
  }
}, 60_000)
