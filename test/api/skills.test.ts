import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { SignalInput } from "../../actors/being/contract/signal.ts"
import { Skills, type SkillCall, type SkillOutcome } from "../../kernel/extensions/skills.ts"
import { at } from "../support/json.ts"
import {
  apiError,
  Client,
  refused,
  registerMember,
  registerOwner,
  run,
  startNode,
  type Registered,
  type TestNode
} from "../support/node.ts"
import { courierRuns, worldActingSkill, writeWorldActingPlugin } from "../support/world-acting-plugin.ts"

let node: TestNode
let owner: Registered
let member: Registered

beforeAll(async () => {
  node = await startNode((dataDir) => ({ pluginDir: join(dataDir, "plugins") }))
  owner = await registerOwner(node)
  member = await registerMember(node, owner.client)
  writeWorldActingPlugin(join(node.dataDir, "plugins"))
  await run(
    owner.client.api.plugins.installPlugin({ payload: { dir: "courier", granted: ["world-acting", "filesystem"] } })
  )
})
afterAll(() => node.close())

/** A caller other than the invoke route (an agent's tool loop): it never passes approved. */
const invokeUnapproved = (call: Omit<SkillCall, "approved">): Promise<SkillOutcome> =>
  node.runtime.runPromise(Effect.flatMap(Skills, (skills) => skills.invoke({ ...call, approved: false })))

const openSignals = () =>
  run(owner.client.api.desktop.listSignals({ urlParams: { status: "open", limit: 100, offset: 0 } }))

const invoke = (client: Client, name: string, input: Record<string, unknown>) =>
  client.api.studioSkills.invokeSkill({ payload: { name, input } })

const answerSignal = (id: string, optionId: string) =>
  owner.client.api.desktop.answerSignal({ path: { id }, payload: { optionId } })

const approvalSignalId = (outcome: SkillOutcome) => String(at(outcome, "approval", "signalId"))

describe("GET /api/studio/skills", () => {
  it("lists every registered skill with its family, plugin and JSON Schemas", async () => {
    const answer = await run(member.client.api.studioSkills.listSkills())
    const names = answer.map((skill) => skill.name)
    expect(names).toEqual(
      expect.arrayContaining([
        "files.list",
        "files.read",
        "files.write",
        "files.search",
        "docs.write_markdown",
        "math.evaluate",
        "web.fetch",
        "web.search",
        worldActingSkill,
        "http.request",
        "http.json",
        "docs.write_docx",
        "docs.write_pdf",
        "image.generate",
        "schedule.create",
        "studio.author_skill_bundle",
        "studio.author_module",
        "scene3d.create",
        "code.scaffold_react_node"
      ])
    )
    for (const skill of answer) expect(skill.outputSchema, skill.name).toMatchObject({ type: "object" })
    const list = answer.find((skill) => skill.name === "files.list")!
    expect(list).toMatchObject({
      family: "files",
      pluginId: "@svc/files",
      worldActing: false,
      description: expect.any(String)
    })
    expect(list.inputSchema).toMatchObject({
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      required: [],
      additionalProperties: false,
      properties: {
        path: { type: "string", default: "" },
        recursive: { type: "boolean", default: false },
        includeHidden: { type: "boolean" }
      }
    })
    expect(JSON.stringify(at(list.inputSchema, "properties", "maxEntries"))).toMatch(/"minimum":1.*"maximum":5000/)
    expect(list.outputSchema).toMatchObject({ type: "object", required: ["root", "path", "entries", "truncated"] })
    expect(at(list.outputSchema, "properties", "root")).toEqual({ type: "string", enum: ["project", "uploads"] })
    const math = answer.find((skill) => skill.name === "math.evaluate")
    expect(math?.inputSchema).toMatchObject({ required: ["expression"] })
    expect(answer.find((skill) => skill.name === worldActingSkill)).toMatchObject({
      worldActing: true,
      family: "courier"
    })
  })

  it("registers the document's thirty skills and studio.author_module as built-ins, exactly seven of them world-acting", async () => {
    const answer = await run(member.client.api.studioSkills.listSkills())
    const builtIns = answer.filter((skill) => skill.pluginId.startsWith("@svc/"))
    expect(builtIns.map((skill) => skill.name).sort()).toEqual(
      [
        "web.search",
        "web.fetch",
        "web.research",
        "http.request",
        "files.list",
        "files.read",
        "files.write",
        "files.search",
        "code.execute",
        "code.scaffold_react_node",
        "scene3d.create",
        "docs.write_markdown",
        "docs.write_docx",
        "image.generate",
        "math.evaluate",
        "llm.generate",
        "llm.structured",
        "memory.recall",
        "memory.store",
        "signal.raise",
        "schedule.create",
        "email.read",
        "email.send",
        "chat_a.send",
        "chat_b.send",
        "studio.author_agent",
        "studio.author_generator",
        "studio.author_skill_bundle",
        "docs.write_pdf",
        "http.json",
        "studio.author_module"
      ].sort()
    )
    expect(
      builtIns
        .filter((skill) => skill.worldActing)
        .map((skill) => skill.name)
        .sort()
    ).toEqual(
      [
        "email.send",
        "chat_a.send",
        "chat_b.send",
        "http.request",
        "http.json",
        "code.execute",
        "code.scaffold_react_node"
      ].sort()
    )
  })
})

describe("POST /api/studio/skills/invoke", () => {
  it("answers { ok, output, durationMs } and works in the caller's own uploads folder", async () => {
    const answer = await run(invoke(member.client, "files.write", { path: "hello.txt", content: "hi" }))
    expect(answer).toEqual({
      ok: true,
      output: { path: "hello.txt", size: 2, created: true, mime: "text/plain" },
      durationMs: expect.any(Number)
    })
    expect(readFileSync(join(node.dataDir, "uploads", member.being.id, "hello.txt"), "utf8")).toBe("hi")
    const mine = await run(invoke(owner.client, "files.list", {}))
    expect(at(mine.output, "entries")).toEqual([])
  })

  it("answers a skill's failure as 200 { ok: false, error, durationMs }", async () => {
    const answer = await run(invoke(member.client, "files.read", { path: "../../node.db" }))
    expect(answer).toEqual({ ok: false, error: expect.stringContaining("climbs out"), durationMs: expect.any(Number) })
    const badInput = await run(invoke(member.client, "math.evaluate", { expr: "1" }))
    expect(badInput).toMatchObject({ ok: false, error: expect.stringContaining("expression") })
  })

  it("answers 404 unknown_skill for a name nothing registered", async () => {
    const answer = await refused(invoke(member.client, "files.teleport", {}))
    expect(answer.status).toBe(404)
    expect(answer.body).toMatchObject({ error: "unknown_skill", details: { name: "files.teleport" } })
  })

  it("answers 400 invalid_request for a malformed body", async () => {
    // Bodies the contract's schema refuses before they leave the typed client: sent raw.
    for (const body of [
      { name: "math.evaluate" },
      { name: "math.evaluate", input: [] },
      { name: "", input: {} },
      { input: {} },
      "not json"
    ]) {
      const answer = await member.client.raw("POST", "/api/studio/skills/invoke", body)
      expect(answer.status, JSON.stringify(body)).toBe(400)
      expect(apiError(answer).error).toBe("invalid_request")
    }
  })

  it("needs a session", async () => {
    const answer = await refused(invoke(new Client(node.url), "math.evaluate", { expression: "1" }))
    expect(answer.status).toBe(401)
  })
})

describe("the approval gate over the node", () => {
  it("runs a plugin's world-acting skill from the invoke route: the caller's own explicit action", async () => {
    const before = courierRuns().length
    const answer = await run(invoke(owner.client, worldActingSkill, { to: "bob", text: "hello" }))
    expect(answer).toMatchObject({ ok: true, output: { delivered: true, to: "bob" } })
    expect(courierRuns().length).toBe(before + 1)
  })

  it("refuses any other caller, raising a decision on the owner's desktop that carries the exact call", async () => {
    const before = courierRuns().length
    const input = { to: "carol@example.org", text: "The draft is attached." }
    const outcome = await invokeUnapproved({ name: worldActingSkill, input, beingId: member.being.id, projectId: null })
    expect(outcome).toMatchObject({
      ok: false,
      error: expect.stringContaining("waits for the owner's approval"),
      approval: { status: "waiting", delivered: true }
    })
    expect(courierRuns().length).toBe(before)
    const signal = (await openSignals()).find((open) => open.id === approvalSignalId(outcome))
    expect(signal).toMatchObject({
      kind: "decision",
      status: "open",
      source: "skills:approval",
      title: `Approve ${worldActingSkill}?`,
      options: [
        { id: "do-it", label: "Do it" },
        { id: "no", label: "No" }
      ],
      action: { kind: "skill.invoke", skill: worldActingSkill, input, beingId: member.being.id, projectId: null }
    })
    expect(signal?.body).toContain("delivers messages to other people")
    expect(
      await run(member.client.api.desktop.listSignals({ urlParams: { status: "open", limit: 100, offset: 0 } }))
    ).toEqual([])
  })

  it("runs the exact call once when the owner answers 'Do it'; the answer cannot be replayed", async () => {
    const input = { to: "dan", text: "approved words" }
    const outcome = await invokeUnapproved({ name: worldActingSkill, input, beingId: owner.being.id })
    const signalId = approvalSignalId(outcome)
    const before = courierRuns().length
    const answered = await run(answerSignal(signalId, "do-it"))
    expect(answered).toMatchObject({
      status: "answered",
      answer: "do-it",
      actionResult: {
        kind: "skill.invoke",
        output: { approved: true, ok: true, output: { delivered: true, to: "dan" } }
      }
    })
    expect(courierRuns().slice(before)).toEqual([input])
    const again = await refused(answerSignal(signalId, "do-it"))
    expect(again.status).toBe(409)
    expect(courierRuns().length).toBe(before + 1)
  })

  it("runs nothing when the owner answers 'No'", async () => {
    const outcome = await invokeUnapproved({
      name: worldActingSkill,
      input: { to: "eve", text: "no" },
      beingId: owner.being.id
    })
    const signalId = approvalSignalId(outcome)
    const before = courierRuns().length
    const answered = await run(answerSignal(signalId, "no"))
    expect(answered).toMatchObject({
      status: "answered",
      actionResult: { kind: "skill.invoke", output: { approved: false } }
    })
    expect(courierRuns().length).toBe(before)
  })

  it("keeps the signal open, with the reason, when the approved run fails", async () => {
    const outcome = await invokeUnapproved({
      name: worldActingSkill,
      input: { to: "nobody", text: "x" },
      beingId: owner.being.id
    })
    const signalId = approvalSignalId(outcome)
    const answered = await refused(answerSignal(signalId, "do-it"))
    expect(answered.status).toBe(409)
    expect(answered.body).toMatchObject({
      error: "action_failed",
      details: { kind: "skill.invoke", reason: "nobody is not a recipient" }
    })
    expect((await openSignals()).find((open) => open.id === signalId)).toMatchObject({ status: "open" })
    await run(answerSignal(signalId, "no"))
  })

  it("runs no call from a signal the gate did not raise, however it imitates one", async () => {
    const forged = await run(
      owner.client.api.desktop.raiseSignal({
        payload: Schema.decodeUnknownSync(SignalInput)({
          kind: "decision",
          title: "Approve?",
          options: [{ id: "do-it", label: "Do it" }],
          action: {
            kind: "skill.invoke",
            skill: worldActingSkill,
            input: { to: "mallory", text: "x" },
            beingId: owner.being.id,
            projectId: null
          }
        })
      })
    )
    const before = courierRuns().length
    const answered = await refused(answerSignal(forged.signal.id, "do-it"))
    expect(answered.status).toBe(409)
    expect(answered.body).toMatchObject({ error: "action_failed" })
    expect(courierRuns().length).toBe(before)
  })
})

describe("the built-in skill families as plugins", () => {
  it("lists each family in GET /api/plugins with its skill contributions", async () => {
    const answer = await run(member.client.api.plugins.listPlugins())
    const byNamespace = new Map(answer.map((plugin) => [plugin.namespace, plugin]))
    const skillsOf = (namespace: string) =>
      (byNamespace.get(namespace)?.contributions ?? [])
        .filter((contribution) => contribution.kind === "skill")
        .map((contribution) => contribution.name)
    expect(byNamespace.get("files")).toMatchObject({
      id: "@svc/files",
      source: { kind: "builtin" },
      status: "active",
      granted: ["filesystem", "llm"]
    })
    expect(skillsOf("files")).toEqual(["files.list", "files.read", "files.write", "files.search"])
    expect(skillsOf("docs")).toEqual(["docs.write_markdown", "docs.write_docx", "docs.write_pdf"])
    expect(skillsOf("math")).toEqual(["math.evaluate"])
    expect(byNamespace.get("web")).toMatchObject({ granted: ["network", "llm"] })
    expect(skillsOf("web")).toEqual(["web.fetch", "web.search", "web.research"])
    expect(byNamespace.get("llm")).toMatchObject({
      id: "@svc/llm",
      source: { kind: "builtin" },
      status: "active",
      granted: ["llm"]
    })
    expect(skillsOf("llm")).toEqual(["llm.generate", "llm.structured"])
    expect(byNamespace.get("memory")).toMatchObject({ id: "@svc/memory", status: "active", granted: ["memory"] })
    expect(skillsOf("memory")).toEqual(["memory.store", "memory.recall"])
    expect(byNamespace.get("signal")).toMatchObject({ id: "@svc/desktop", status: "active", granted: ["signals"] })
    expect(skillsOf("signal")).toEqual(["signal.raise"])
  })
})
