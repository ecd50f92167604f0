/**
 * code.execute over a real node (issue 11): javascript in an isolate, python and sh in nova
 * (bubblewrap), each run through the invoke route; the approval gate; the refusals; and a
 * tier that is unavailable failing closed unless the owner allows unsandboxed runs.
 */
import * as Effect from "effect/Effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Skills } from "../../kernel/extensions/skills.ts"
import { at } from "../support/json.ts"
import { type Client, registerOwner, run, startNode, type Registered, type TestNode } from "../support/node.ts"

let node: TestNode
let owner: Registered

beforeAll(async () => {
  node = await startNode()
  owner = await registerOwner(node)
})
afterAll(() => node.close())

const execute = (client: Client, input: Record<string, unknown>) =>
  run(client.api.studioSkills.invokeSkill({ payload: { name: "code.execute", input } }))

/** A run that must have answered: its output (the runner's report). */
const report = async (client: Client, input: Record<string, unknown>) => {
  const answer = await execute(client, input)
  expect(answer, JSON.stringify(answer)).toMatchObject({ ok: true })
  return answer.output as {
    stdout: string
    stderr: string
    exitCode: number
    timedOut: boolean
    sandboxed: boolean
    unsandboxed: boolean
    runtime: string
  }
}

describe("code.execute: javascript in an isolate", () => {
  it("answers console output, the exit code and where it ran", async () => {
    const answer = await report(owner.client, {
      language: "javascript",
      code: "console.log('sum', 2 + 3, { a: 1 }); console.error('careful')"
    })
    expect(answer).toEqual({
      stdout: 'sum 5 {"a":1}\n',
      stderr: "careful\n",
      exitCode: 0,
      timedOut: false,
      sandboxed: true,
      unsandboxed: false,
      runtime: "isolate"
    })
  })

  it("has no require, process, timers, fetch or file access inside", async () => {
    const answer = await report(owner.client, {
      language: "javascript",
      code: "console.log([typeof require, typeof process, typeof setTimeout, typeof fetch, typeof globalThis.Deno, typeof import.meta].join(','))"
    })
    // import.meta outside a module is a syntax error: the whole snippet fails to compile.
    expect(answer.exitCode).toBe(1)
    const plain = await report(owner.client, {
      language: "javascript",
      code: "console.log([typeof require, typeof process, typeof setTimeout, typeof fetch].join(','))"
    })
    expect(plain.stdout).toBe("undefined,undefined,undefined,undefined\n")
  })

  it("stops a loop that never ends at its time limit, and a heap without bound at its memory limit", async () => {
    const loop = await report(owner.client, { language: "javascript", code: "for (;;) {}", timeoutMs: 300 })
    expect(loop).toMatchObject({ timedOut: true, exitCode: 124, runtime: "isolate" })
    const heap = await report(owner.client, {
      language: "javascript",
      code: "const a = []; for (;;) a.push(new Array(1e6).fill(7))"
    })
    expect(heap).toMatchObject({ timedOut: false, exitCode: 137 })
    expect(heap.stderr).toContain("memory")
    const after = await report(owner.client, { language: "javascript", code: "console.log('still here')" })
    expect(after.stdout).toBe("still here\n")
  })

  it("answers a thrown error on stderr with exit code 1", async () => {
    const answer = await report(owner.client, { language: "javascript", code: "throw new TypeError('nope')" })
    expect(answer).toMatchObject({ exitCode: 1, stdout: "" })
    expect(answer.stderr).toMatch(/^TypeError: nope/)
    expect(answer.stderr).not.toContain("host/")
  })
})

describe("code.execute: refusals", () => {
  it("refuses an unknown language, empty code and oversize code, running nothing", async () => {
    for (const [input, words] of [
      [{ language: "ruby", code: "puts 1" }, "language"],
      [{ language: "sh", code: "   " }, "no code to run"],
      [{ language: "python", code: "x = 1\n".repeat(20_000) }, "longer than"],
      [{ language: "sh", code: "true", timeoutMs: 10 }, "timeoutMs"]
    ] as const) {
      const answer = await execute(owner.client, input)
      expect(answer, JSON.stringify(input).slice(0, 80)).toMatchObject({
        ok: false,
        error: expect.stringContaining(words)
      })
    }
  })

  it("is world-acting: a caller other than a human waits for the owner's approval, and 'Do it' runs it", async () => {
    const input = { language: "javascript", code: "console.log('approved run')" }
    const outcome = await node.runtime.runPromise(
      Effect.flatMap(Skills, (skills) =>
        skills.invoke({ name: "code.execute", input, beingId: owner.being.id, approved: false })
      )
    )
    expect(outcome).toMatchObject({
      ok: false,
      error: expect.stringContaining("approval"),
      approval: { status: "waiting", delivered: true }
    })
    expect(outcome).not.toHaveProperty("output")
    const signalId = String(at(outcome, "approval", "signalId"))
    const signal = (
      await run(owner.client.api.desktop.listSignals({ urlParams: { status: "open", limit: 100, offset: 0 } }))
    ).find((open) => open.id === signalId)
    expect(signal).toMatchObject({ kind: "decision", action: { kind: "skill.invoke", skill: "code.execute", input } })
    expect(signal?.body).toContain("runs programs on this machine")
    const answered = await run(
      owner.client.api.desktop.answerSignal({ path: { id: signalId }, payload: { optionId: "do-it" } })
    )
    expect(at(answered, "actionResult", "output", "output", "stdout")).toBe("approved run\n")
  })

  it("is listed with its schemas as a world-acting skill of the code family", async () => {
    const skills = await run(owner.client.api.studioSkills.listSkills())
    const code = skills.find((skill) => skill.name === "code.execute")
    expect(code).toMatchObject({ family: "code", worldActing: true, pluginId: "@svc/code" })
    expect(at(code?.inputSchema, "properties", "language", "enum")).toEqual(["javascript", "python", "sh"])
    expect(at(code?.outputSchema, "required")).toEqual([
      "stdout",
      "stderr",
      "exitCode",
      "timedOut",
      "sandboxed",
      "unsandboxed",
      "runtime"
    ])
  })
})
