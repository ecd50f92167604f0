/**
 * A project run survives kill -9: a real node in a child process (host/start.ts over a data
 * folder) runs a generator against the scripted OpenAI server in this process; it is killed with
 * SIGKILL while the second task waits on its model, started again over the same folder, and the
 * run completes without the first task's model calls being made a second time.
 */
import { spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, expect, it } from "vitest"
import { Client, person, run } from "../support/node.ts"
import { startOpenAiServer, type OpenAiServer } from "../support/openai-server.ts"
import { callsFor, scriptStudio } from "./projects-scripted.ts"
import { startGenerator, twoStepGenerator, untilSettled } from "./projects-support.ts"

const nodeBinary = fileURLToPath(new URL("../../node_modules/.bin/node", import.meta.url))
const startScript = fileURLToPath(new URL("../../host/start.ts", import.meta.url))
const ownerCode = "owner-code-for-the-durability-test"

let models: OpenAiServer
let dataDir: string

beforeAll(async () => {
  models = await startOpenAiServer()
  dataDir = mkdtempSync(join(tmpdir(), "project-durable-"))
})
afterAll(async () => {
  await models.close()
  rmSync(dataDir, { recursive: true, force: true })
})

/** Starts the node as a child process; resolves with its URL once it listens. */
const startChild = (port: number) => {
  const child = spawn(nodeBinary, [startScript], {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: "127.0.0.1",
      TRUST_PROXY: "1",
      OWNER_ACCESS_CODE: ownerCode,
      LLM_BASE_URL: models.baseUrl,
      LLM_API_KEY: "sk-test-durable",
      LLM_LOCAL: "false"
    },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let output = ""
  const listening = new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      const match = /The node is listening at (\S+)/.exec(output)
      if (match) resolve(match[1])
    }
    child.stdout.on("data", onData)
    child.stderr.on("data", onData)
    child.once("exit", () => reject(new Error(`the node exited before listening:\n${output}`)))
  })
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once("exit", (_code, signal) => resolve(signal)))
  return { child, listening, exited, output: () => output }
}

it("continues after SIGKILL from the last finished task and never pays for it again", async () => {
  scriptStudio(models, { delayMs: (title) => (title.startsWith("Report") ? 60_000 : 0) })
  const port = 20_000 + Math.floor(Math.random() * 20_000)
  const first = startChild(port)
  const url = await first.listening
  const owner = new Client(url)
  await run(owner.api.authPublic.register({ payload: person(ownerCode) }))
  const generator = await twoStepGenerator(owner)
  const started = await startGenerator(owner, generator.id, { topic: "genmaicha" })

  // The report's first model call is under way (and hangs): the notes task finished before it started.
  await untilSettled(owner, started.id, () => callsFor(models, "Report on genmaicha").length > 0)
  const notesCalls = callsFor(models, "Notes on genmaicha").length
  expect(notesCalls).toBe(2)
  first.child.kill("SIGKILL")
  expect(await first.exited).toBe("SIGKILL")

  scriptStudio(models)
  const second = startChild(port)
  await second.listening
  try {
    const detail = await untilSettled(owner, started.id, undefined, 30_000)
    expect(detail.project.status).toBe("done")
    expect(detail.tasks.map((task) => task.status)).toEqual(["done", "done"])
    expect(callsFor(models, "Notes on genmaicha").length).toBe(notesCalls)
    expect(callsFor(models, "Report on genmaicha").length).toBeGreaterThanOrEqual(3)
    expect(detail.project.outputs.map((output) => output.path)).toEqual(["notes-on-genmaicha.md", "report-on-genmaicha.md"])
  } finally {
    second.child.kill("SIGTERM")
    await second.exited
  }
}, 60_000)
