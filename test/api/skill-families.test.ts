/**
 * The llm, web.research, signal and memory skill families on a real node (memory through the
 * twin's store): invoked over
 * POST /api/studio/skills/invoke (and, for calls inside a project, through the node's own skill
 * runtime as a project's agent would), with models at the scripted OpenAI-protocol server.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { Skills, type SkillOutcome } from "../../kernel/extensions/skills.ts"
import { noModelSettings, remoteDefault } from "../support/models.ts"
import { at } from "../support/json.ts"
import {
  type Client,
  registerMember,
  registerOwner,
  run,
  startNode,
  type Registered,
  type TestNode
} from "../support/node.ts"
import { startOpenAiServer, type OpenAiServer } from "../support/openai-server.ts"
import { effectSchemaUrl } from "../support/world-acting-plugin.ts"
import { LiveTab } from "../support/live.ts"
import { embedByMeaning } from "../support/meanings.ts"

let model: OpenAiServer
let node: TestNode
let owner: Registered
let member: Registered

/**
 * A third-party plugin `@test/<name>` with one skill `<name>.<skill>` that uses one capability:
 * `run` is the skill's run function's source, `output` its output fields' schema source.
 */
const writeSkillPlugin = (
  pluginDir: string,
  name: string,
  capability: string,
  skill: { id: string; input: string; output: string; run: string }
) => {
  mkdirSync(join(pluginDir, name), { recursive: true })
  writeFileSync(
    join(pluginDir, name, "plugin.json"),
    JSON.stringify({
      apiVersion: "1.0",
      id: `@test/${name}`,
      version: "1.0.0",
      namespace: name,
      name,
      main: "index.js",
      capabilities: [{ kind: capability }],
      extensions: [{ kind: "skill", id: skill.id, uses: [capability] }]
    })
  )
  writeFileSync(
    join(pluginDir, name, "index.js"),
    `import * as Schema from ${JSON.stringify(effectSchemaUrl())}
export const activate = (context) => {
  context.contribute("skill", ${JSON.stringify(skill.id)}, {
    description: "A test plugin's skill.",
    input: Schema.Struct(${skill.input}),
    output: Schema.Struct(${skill.output}),
    run: ${skill.run}
  })
}
`
  )
}

/** Raises a signal through its own `signals` adapter. */
const writeHeraldPlugin = (pluginDir: string) =>
  writeSkillPlugin(pluginDir, "herald", "signals", {
    id: "announce",
    input: "{ title: Schema.String }",
    output: "{ signalId: Schema.String }",
    run: "async ({ title }, run) => ({ signalId: (await run.adapters.signals.raise({ title })).signalId })"
  })

/** Stores through its own `memory` adapter, trying to pass for the studio. */
const writeScribePlugin = (pluginDir: string) =>
  writeSkillPlugin(pluginDir, "scribe", "memory", {
    id: "note",
    input: "{ content: Schema.String }",
    output: "{ source: Schema.String }",
    run: `async ({ content }, run) => {
      const stored = await run.adapters.memory.store({ content, kind: "fact", importance: 0.5, tags: [], source: "studio:forged" })
      return { source: stored.memory.source }
    }`
  })

beforeAll(async () => {
  model = await startOpenAiServer()
  node = await startNode((dataDir) => ({
    ...noModelSettings,
    ...remoteDefault(model.baseUrl),
    pluginDir: join(dataDir, "plugins"),
    searchUrl: Option.none()
  }))
  owner = await registerOwner(node)
  member = await registerMember(node, owner.client)
  writeHeraldPlugin(join(node.dataDir, "plugins"))
  await run(owner.client.api.plugins.installPlugin({ payload: { dir: "herald", granted: ["signals"] } }))
  writeScribePlugin(join(node.dataDir, "plugins"))
  await run(owner.client.api.plugins.installPlugin({ payload: { dir: "scribe", granted: ["memory"] } }))
})
afterAll(async () => {
  await node.close()
  await model.close()
})
beforeEach(() => model.reset())

/** As a project's agent calls a skill: through the node's runtime, inside the project, unapproved. */
const invokeInProject = (name: string, input: unknown, beingId: string, projectId: string): Promise<SkillOutcome> =>
  node.runtime.runPromise(
    Effect.flatMap(Skills, (skills) => skills.invoke({ name, input, beingId, projectId, approved: false }))
  )

const signalsOf = (who: Registered) =>
  run(who.client.api.desktop.listSignals({ urlParams: { status: "open", limit: 200, offset: 0 } }))

/** Invokes a skill over the route, as its caller's explicit action; a skill's own failure is still a 200. */
const invoke = (client: Client, name: string, input: Record<string, unknown>) =>
  run(client.api.studioSkills.invokeSkill({ payload: { name, input } }))

const usageOf = (who: Registered) => run(who.client.api.llm.usage())

describe("GET /api/studio/skills", () => {
  it("lists the new families' skills with their schemas", async () => {
    const skills = await run(member.client.api.studioSkills.listSkills())
    const byName = new Map(skills.map((skill) => [skill.name, skill]))
    for (const name of [
      "llm.generate",
      "llm.structured",
      "web.research",
      "signal.raise",
      "memory.store",
      "memory.recall"
    ]) {
      expect(byName.get(name), name).toMatchObject({ worldActing: false, description: expect.any(String) })
    }
    expect(byName.get("signal.raise")).toMatchObject({
      family: "signal",
      pluginId: "@svc/desktop",
      inputSchema: { required: ["title"] }
    })
    expect(at(byName.get("llm.generate")?.inputSchema, "properties", "tier")).toMatchObject({
      enum: ["cheap", "standard"],
      default: "standard"
    })
    expect(JSON.stringify(at(byName.get("memory.store")?.inputSchema, "properties", "content"))).toContain(
      '"maxLength":4000'
    )
  })
})

describe("llm.generate over the invoke route", () => {
  it("answers and records the call charged to the caller: GET /api/llm/usage shows it with their being", async () => {
    model.script("chat", { content: "Hello from the model.", usage: { promptTokens: 100, completionTokens: 20 } })
    const answer = await invoke(member.client, "llm.generate", { prompt: "Say hello." })
    expect(answer).toMatchObject({ ok: true, output: { text: "Hello from the model.", model: "gpt-4.1" } })
    const usage = await usageOf(member)
    expect(usage.recent[0]).toMatchObject({
      beingId: member.being.id,
      projectId: null,
      purpose: "skill llm.generate",
      model: "gpt-4.1",
      costUsd: at(answer.output, "costUsd")
    })
    const ownUsage = await usageOf(owner)
    expect(ownUsage.recent.some((call) => call.beingId === member.being.id)).toBe(true)
  })

  it("charges a call inside a project to that project", async () => {
    await invokeInProject("llm.generate", { prompt: "Outline it." }, member.being.id, "project-42")
    expect((await usageOf(member)).recent[0]).toMatchObject({ beingId: member.being.id, projectId: "project-42" })
  })

  it("refuses the strong tier", async () => {
    const answer = await invoke(member.client, "llm.generate", { prompt: "Plan.", tier: "strong" })
    expect(answer).toMatchObject({ ok: false, error: expect.stringContaining("tier") })
    expect(model.requestsFor("chat")).toEqual([])
  })
})

describe("llm.structured over the invoke route", () => {
  it("repairs once with the validator's exact errors", async () => {
    model.script("chat", { content: '{"count":"three"}' }, { content: '{"count":3}' })
    const schema = { type: "object", properties: { count: { type: "integer" } }, required: ["count"] }
    const answer = await invoke(owner.client, "llm.structured", { prompt: "How many?", schema })
    expect(answer).toMatchObject({ ok: true, output: { value: { count: 3 }, repaired: true } })
    expect(model.requestsFor("chat")[1].body.messages!.at(-1)!.content).toContain("/count must be integer")
  })
})

describe("without a model configured", () => {
  it("the llm skills answer ok: false with what to set", async () => {
    const bare = await startNode(noModelSettings)
    try {
      const bareOwner = await registerOwner(bare)
      const answer = await invoke(bareOwner.client, "llm.generate", { prompt: "Hi" })
      expect(answer).toMatchObject({
        ok: false,
        error: expect.stringMatching(
          /^No model is bound to the 'standard' tier yet: bind the tier in Settings → Models \(a provider with its key, a local server or the demo models\)\.$/
        )
      })
    } finally {
      await bare.close()
    }
  })
})

describe("web.research over the invoke route", () => {
  it("without a search provider answers from the model alone and says so", async () => {
    model.script("chat", { content: "Probably the moon." })
    const answer = await invoke(member.client, "web.research", { question: "Why tides?" })
    expect(answer).toMatchObject({
      ok: true,
      output: { answer: "Probably the moon.", sources: [], note: expect.stringContaining("comes from the model alone") }
    })
  })
})

describe("signal.raise", () => {
  it("lands on the caller's own desktop, the desktop plugin as source, outside a project", async () => {
    const answer = await invoke(owner.client, "signal.raise", { title: "Lunch at noon", kind: "reminder" })
    expect(answer).toMatchObject({ ok: true, output: { signalId: expect.any(String), delivered: true } })
    expect((await signalsOf(owner)).find((signal) => signal.id === at(answer.output, "signalId"))).toMatchObject({
      beingId: owner.being.id,
      kind: "reminder",
      title: "Lunch at noon",
      source: "plugin:@svc/desktop",
      status: "open"
    })
  })

  it("a member's raise lands on the member's desktop, not the owner's", async () => {
    const answer = await invoke(member.client, "signal.raise", { title: "Mine alone" })
    expect((await signalsOf(member)).find((signal) => signal.id === at(answer.output, "signalId"))).toMatchObject({
      beingId: member.being.id
    })
    expect((await signalsOf(owner)).some((signal) => signal.title === "Mine alone")).toBe(false)
  })

  it("inside a project has studio:<projectId> as its source", async () => {
    const outcome = await invokeInProject(
      "signal.raise",
      { title: "Chapter one is drafted", kind: "insight" },
      member.being.id,
      "project-7"
    )
    expect(outcome).toMatchObject({ ok: true, output: { delivered: true } })
    const signal = (await signalsOf(member)).find((open) => open.title === "Chapter one is drafted")
    expect(signal).toMatchObject({ source: "studio:project-7", beingId: member.being.id })
  })

  it("keeps a third-party plugin's signals at plugin:<id> on the owner's desktop, even inside a project", async () => {
    const outcome = await invokeInProject("herald.announce", { title: "Hear ye" }, member.being.id, "project-7")
    expect(outcome).toMatchObject({ ok: true })
    expect((await signalsOf(owner)).find((signal) => signal.title === "Hear ye")).toMatchObject({
      source: "plugin:@test/herald"
    })
    expect((await signalsOf(member)).some((signal) => signal.title === "Hear ye")).toBe(false)
  })

  it("refuses a 161-character title and 7 options, raising nothing", async () => {
    const before = (await signalsOf(owner)).length
    const options = Array.from({ length: 7 }, (_, n) => ({ id: `o${n}`, label: `Option ${n}` }))
    for (const input of [{ title: "x".repeat(161) }, { title: "Pick one", options }]) {
      const answer = await invoke(owner.client, "signal.raise", input)
      expect(answer).toMatchObject({ ok: false, error: expect.stringContaining("The input does not fit signal.raise") })
    }
    expect((await signalsOf(owner)).length).toBe(before)
  })

  it("answers the node's own refusal plainly (an option id it does not take)", async () => {
    const answer = await invoke(owner.client, "signal.raise", {
      title: "Odd",
      options: [{ id: "has space", label: "x" }]
    })
    expect(answer).toMatchObject({ ok: false, error: expect.stringContaining("signals.raise refused the signal") })
  })
})

describe("memory.store and memory.recall", () => {
  const meanings = [
    ["tea", "chai", "oolong"],
    ["dog", "puppy", "retriever"]
  ]

  it("store into the calling being's twin (memory.created reaches its tabs) and recall finds it by meaning", async () => {
    model.handle("embeddings", embedByMeaning(meanings))
    const tab = await LiveTab.open(node, member.client)
    const stored = await invoke(member.client, "memory.store", {
      content: "I like oolong.",
      kind: "preference",
      tags: ["drinks"]
    })
    expect(stored).toMatchObject({
      ok: true,
      output: {
        stored: true,
        memory: { content: "I like oolong.", kind: "preference", importance: 0.5, tags: ["drinks"], source: "skill" }
      }
    })
    const memory = at(stored.output, "memory")
    expect(await tab.next((frame) => frame.type === "memory.created")).toEqual({ type: "memory.created", memory })
    tab.close()

    expect(await invoke(member.client, "memory.recall", { query: "chai" })).toMatchObject({
      ok: true,
      output: { memories: [memory] }
    })
    expect(await run(member.client.api.twin.searchMemories({ urlParams: { q: "oolong", offset: 0 } }))).toEqual([
      memory
    ])
    // Strictly per being: the owner's twin holds none of it.
    expect(await invoke(owner.client, "memory.recall", { query: "chai" })).toMatchObject({
      ok: true,
      output: { memories: [] }
    })
  })

  it("inside a project the source becomes studio:<projectId>; a near-duplicate is not stored twice", async () => {
    model.handle("embeddings", embedByMeaning(meanings))
    const first = await invokeInProject(
      "memory.store",
      { content: "The puppy is named Biscuit." },
      member.being.id,
      "project-9"
    )
    expect(first).toMatchObject({ ok: true, output: { stored: true, memory: { source: "studio:project-9" } } })
    const again = await invokeInProject(
      "memory.store",
      { content: "The puppy is named Biscuit!" },
      member.being.id,
      "project-9"
    )
    expect(again).toMatchObject({
      ok: true,
      output: { stored: false, memory: at(first, "output", "memory"), note: expect.stringContaining("near-duplicate") }
    })
    const found = await run(member.client.api.twin.searchMemories({ urlParams: { q: "biscuit", offset: 0 } }))
    expect(found.map((memory) => memory.source)).toEqual(["studio:project-9"])
  })

  it("sources a third-party plugin's memories plugin:<id> whatever it asks, in the calling being's twin", async () => {
    model.handle("embeddings", embedByMeaning(meanings))
    const outcome = await invoke(member.client, "scribe.note", { content: "The quarterly report is due Friday." })
    expect(outcome).toMatchObject({ ok: true, output: { source: "plugin:@test/scribe" } })
    const found = await run(member.client.api.twin.searchMemories({ urlParams: { q: "quarterly", offset: 0 } }))
    expect(found.map((memory) => memory.source)).toEqual(["plugin:@test/scribe"])
  })
})
