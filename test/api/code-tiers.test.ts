/**
 * Failing closed (issue 11): a node told to run python and sh in a tier this machine lacks (docker:
 * no engine here) refuses such a run, naming the tier and how to enable it, and says so in
 * /api/health; only SVC_SANDBOX_ALLOW_LOCAL runs it, reported unsandboxed by the run itself.
 * javascript runs in its isolate whatever the tier.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Client, registerOwner, run, startNode, type Registered, type TestNode } from "../support/node.ts"

const execute = (client: Client, input: Record<string, unknown>) =>
  run(client.api.studioSkills.invokeSkill({ payload: { name: "code.execute", input } }))

describe("SVC_SANDBOX_RUNTIME=docker without a Docker engine", () => {
  let node: TestNode
  let owner: Registered
  beforeAll(async () => {
    node = await startNode({ sandboxRuntime: "docker" })
    owner = await registerOwner(node)
  })
  afterAll(() => node.close())

  it("refuses python and sh, naming the tier and how to enable it", async () => {
    for (const language of ["python", "sh"]) {
      const answer = await execute(owner.client, { language, code: "echo ran" })
      expect(answer).toMatchObject({ ok: false, error: expect.stringContaining("The docker sandbox is unavailable") })
      expect(answer.error).toContain("Start a Docker engine")
      expect(answer.error).toContain("SVC_SANDBOX_ALLOW_LOCAL=1")
    }
  })

  it("still runs javascript in its isolate", async () => {
    const answer = await execute(owner.client, { language: "javascript", code: "console.log(6 * 7)" })
    expect(answer.output).toMatchObject({ stdout: "42\n", runtime: "isolate", sandboxed: true })
  })

  it("says in /api/health that no tier is available, and why", async () => {
    const health = await run(new Client(node.url).api.health.health())
    expect(health.sandbox).toMatchObject({
      available: false,
      runtime: null,
      setting: "docker",
      allowLocal: false,
      protections: [],
      checks: { docker: false }
    })
    expect(health.sandbox.reason).toContain("docker sandbox is unavailable")
  })
})

describe("SVC_SANDBOX_ALLOW_LOCAL=1 with the chosen tier unavailable", () => {
  let node: TestNode
  let owner: Registered
  beforeAll(async () => {
    node = await startNode({ sandboxRuntime: "docker", sandboxAllowLocal: true })
    owner = await registerOwner(node)
  })
  afterAll(() => node.close())

  it("runs the code unsandboxed, and the report says so itself", async () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: sh expands it, not JavaScript
    const answer = await execute(owner.client, { language: "sh", code: 'echo ran; echo "${LLM_API_KEY:-no key}"' })
    expect(answer.output).toEqual({
      stdout: "ran\nno key\n",
      stderr: "",
      exitCode: 0,
      timedOut: false,
      sandboxed: false,
      unsandboxed: true,
      runtime: "local"
    })
    const python = await execute(owner.client, { language: "python", code: "while True: pass", timeoutMs: 300 })
    expect(python.output).toMatchObject({ timedOut: true, exitCode: 124, sandboxed: false, unsandboxed: true })
  })

  it("still runs javascript sandboxed", async () => {
    const answer = await execute(owner.client, { language: "javascript", code: "console.log('iso')" })
    expect(answer.output).toMatchObject({ sandboxed: true, unsandboxed: false, runtime: "isolate" })
  })
})
