/**
 * The studio family on a real node: studio.author_agent and studio.author_generator invoked over
 * POST /api/studio/skills/invoke and through the node's own skill runtime (as a project's agent
 * calls them), writing real rows owned by the caller through the Agents and Generators services,
 * refusing whole calls with nothing written, and keeping the authoring adapter from third-party
 * plugins that hold 'storage'.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { cpSync, existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import { Skills, type SkillOutcome } from "../../kernel/extensions/skills.ts"
import { checkDeliverable } from "../../actors/project/pipeline/checks.ts"
import { DeliverableContract } from "../../actors/project/contract/deliverable.ts"
import { planContract } from "../../actors/project/pipeline/word-target.ts"
import { at } from "../support/json.ts"
import { nodeWithOwner, refused, registerMember, run, type Registered } from "../support/node.ts"
import { effectSchemaUrl } from "../support/world-acting-plugin.ts"

const context = nodeWithOwner((dataDir) => ({ pluginDir: join(dataDir, "plugins") }))
let alice: Registered
let bob: Registered

/** A third-party plugin granted 'storage' whose skill reports which adapters its call and its activate got. */
const writeKeeperPlugin = (pluginDir: string) => {
  mkdirSync(join(pluginDir, "keeper"), { recursive: true })
  writeFileSync(
    join(pluginDir, "keeper", "plugin.json"),
    JSON.stringify({
      apiVersion: "1.0",
      id: "@test/keeper",
      version: "1.0.0",
      namespace: "keeper",
      name: "Keeper",
      main: "index.js",
      capabilities: [{ kind: "storage" }],
      extensions: [{ kind: "skill", id: "peek", uses: ["storage"] }]
    })
  )
  writeFileSync(
    join(pluginDir, "keeper", "index.js"),
    `import * as Schema from ${JSON.stringify(effectSchemaUrl())}
export const activate = (context) => {
  const atActivate = Object.keys(context.adapters)
  context.contribute("skill", "peek", {
    description: "Reports its adapters (test plugin).",
    input: Schema.Struct({}),
    output: Schema.Struct({
      atActivate: Schema.Array(Schema.String),
      inCall: Schema.Array(Schema.String),
      storage: Schema.Array(Schema.String)
    }),
    run: async (_input, run) => ({
      atActivate,
      inCall: Object.keys(run.adapters),
      storage: Object.keys(run.adapters.storage ?? {}).sort()
    })
  })
}
`
  )
}

beforeAll(async () => {
  alice = await registerMember(context.node, context.owner.client)
  bob = await registerMember(context.node, context.owner.client)
  writeKeeperPlugin(join(context.node.dataDir, "plugins"))
  await run(context.owner.client.api.plugins.installPlugin({ payload: { dir: "keeper", granted: ["storage"] } }))
})

const query = <T extends object>(text: string, ...params: Array<string>) =>
  context.node.runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe<T>(text, params)))

/** Every row authoring can write: agent cards, the beings that wear them, generators. */
const rowCounts = async () =>
  (
    await query<{ agents: number; beings: number; generators: number }>(
      "SELECT (SELECT count(*) FROM agents) AS agents, (SELECT count(*) FROM beings) AS beings, (SELECT count(*) FROM generators) AS generators"
    )
  )[0]

/** Invokes over the route; a skill's own refusal is still a 200. */
const invoke = (who: Registered, name: string, input: Record<string, unknown>) =>
  run(who.client.api.studioSkills.invokeSkill({ payload: { name, input } }))

/** The id an authoring call answered with. */
const authoredId = (output: unknown) => String(at(output, "id"))

const scout = { name: "Scout", role: "researcher", skills: ["files.search", "web.fetch"] }

/** A valid generator; `steps` and other fields replace its own. */
const tides = (fields: Record<string, unknown> = {}) => ({
  name: "Tide notes",
  description: "Notes about tides.",
  inputsSchema: { type: "object", required: ["place"], properties: { place: { type: "string" } } },
  steps: [
    {
      id: "research",
      title: "Research {{inputs.place}}",
      role: "researcher",
      skills: ["web.search"],
      instruction: "Find tides for {{inputs.place}}."
    },
    {
      id: "write",
      title: "Write",
      role: "writer",
      skills: ["docs.write_markdown"],
      instruction: "Write from {{steps.research.output}}.",
      dependsOn: ["research"]
    }
  ] as Array<Record<string, unknown>>,
  outputKinds: ["markdown"],
  isPublic: false,
  ...fields
})

describe("the studio family", () => {
  it("is listed by GET /api/plugins as a built-in with its four authoring skills, none world-acting", async () => {
    const plugins = await run(alice.client.api.plugins.listPlugins())
    expect(plugins.find((plugin) => plugin.namespace === "studio")).toMatchObject({
      id: "@svc/studio",
      source: { kind: "builtin" },
      status: "active",
      granted: ["storage", "filesystem"],
      contributions: [
        { kind: "skill", name: "studio.author_agent", title: "Author an agent", worldActing: false },
        { kind: "skill", name: "studio.author_generator", title: "Author a generator", worldActing: false },
        { kind: "skill", name: "studio.author_skill_bundle", title: "Author a skill bundle", worldActing: false },
        { kind: "skill", name: "studio.author_module", title: "Author a module bundle", worldActing: false }
      ]
    })
    const skills = await run(alice.client.api.studioSkills.listSkills())
    expect(skills.filter((skill) => skill.family === "studio").map((skill) => [skill.name, skill.worldActing])).toEqual(
      [
        ["studio.author_agent", false],
        ["studio.author_generator", false],
        ["studio.author_skill_bundle", false],
        ["studio.author_module", false]
      ]
    )
  })
})

describe("studio.author_agent", () => {
  it("writes an agent owned by the caller: theirs in GET /api/studio/agents, invisible to another being while private", async () => {
    const answer = await invoke(alice, "studio.author_agent", scout)
    expect(answer).toMatchObject({
      ok: true,
      output: { authored: true, id: expect.any(String), name: "Scout", note: expect.any(String) }
    })
    const id = authoredId(answer.output)

    const mine = await run(alice.client.api.studioAgents.listAgents())
    expect(mine.find((agent) => agent.id === id)).toMatchObject({
      ownerId: alice.being.id,
      name: "Scout",
      skills: expect.arrayContaining(scout.skills)
    })
    expect((await run(bob.client.api.studioAgents.listAgents())).some((agent) => agent.id === id)).toBe(false)
    expect((await refused(bob.client.api.studioAgents.getAgent({ path: { id } }))).status).toBe(403)
    // A DELETE undoes it, like any agent of hers.
    await run(alice.client.api.studioAgents.deleteAgent({ path: { id } }))
  })

  it("refuses the whole call on one unknown skill name, naming it, and writes nothing", async () => {
    const before = await rowCounts()
    const answer = await invoke(alice, "studio.author_agent", {
      ...scout,
      name: "Teleporter",
      skills: ["files.search", "web.teleport"]
    })
    expect(answer).toMatchObject({ ok: true, output: { authored: false, id: null, name: "Teleporter" } })
    expect(at(answer.output, "note")).toContain('"web.teleport"')
    expect(await rowCounts()).toEqual(before)
  })

  it("refuses an input that names an owner as invalid input, and writes nothing", async () => {
    const before = await rowCounts()
    const answer = await invoke(alice, "studio.author_agent", { ...scout, ownerId: bob.being.id })
    expect(answer).toMatchObject({ ok: false, error: expect.stringContaining("does not fit studio.author_agent") })
    expect(answer.error).toContain("ownerId")
    expect(await rowCounts()).toEqual(before)
  })

  it("run by a project's agent through the node's runtime (unapproved), writes for the being the call works for", async () => {
    const outcome: SkillOutcome = await context.node.runtime.runPromise(
      Effect.flatMap(Skills, (skills) =>
        skills.invoke({
          name: "studio.author_agent",
          input: { ...scout, name: "Tide scout" },
          beingId: bob.being.id,
          projectId: "p-1",
          approved: false
        })
      )
    )
    expect(outcome).toMatchObject({ ok: true, output: { authored: true, name: "Tide scout" } })
    const id = authoredId(at(outcome, "output"))
    expect(await run(bob.client.api.studioAgents.getAgent({ path: { id } }))).toMatchObject({ ownerId: bob.being.id })
    expect((await refused(alice.client.api.studioAgents.getAgent({ path: { id } }))).status).toBe(403)
  })

  it("reports what the pipeline's authored check reads: a written agent counts, a refusal is quoted", async () => {
    const written = await invoke(alice, "studio.author_agent", { ...scout, name: "Counted" })
    const notCounted = await invoke(alice, "studio.author_agent", {
      ...scout,
      name: "Not counted",
      skills: ["web.teleport"]
    })
    const contract = planContract(
      Schema.decodeUnknownSync(DeliverableContract)({ authored: { kind: "agent", min: 2 } }),
      {}
    )
    const report = checkDeliverable(contract, {
      saved: [],
      skillResults: [written, notCounted].map(({ ok, output, error }) =>
        error === undefined
          ? { skill: "studio.author_agent", ok, output }
          : { skill: "studio.author_agent", ok, output, error }
      )
    })
    expect(report.authored).toEqual([
      { kind: "agent", id: at(written.output, "id"), name: "Counted", ok: true, note: at(written.output, "note") },
      { kind: "agent", id: null, name: "Not counted", ok: false, note: at(notCounted.output, "note") }
    ])
    expect(report.failures).toEqual([{ code: "authored", message: expect.stringContaining("web.teleport") }])
  })
})

describe("studio.author_generator", () => {
  it("writes a valid generator owned by the caller, private to them when asked", async () => {
    const answer = await invoke(alice, "studio.author_generator", tides())
    expect(answer).toMatchObject({ ok: true, output: { authored: true, id: expect.any(String), name: "Tide notes" } })
    const id = authoredId(answer.output)
    expect(await run(alice.client.api.studioGenerators.getGenerator({ path: { id } }))).toMatchObject({
      ownerId: alice.being.id,
      isPublic: false,
      steps: [{ id: "research" }, { id: "write", dependsOn: ["research"] }]
    })
    expect((await run(bob.client.api.studioGenerators.listGenerators())).some((generator) => generator.id === id)).toBe(
      false
    )
  })

  it("refuses a generator that breaks a rule, with the rule's message, and writes nothing", async () => {
    const before = await rowCounts()
    const [first, second] = tides().steps
    const broken = {
      strong: tides({ steps: [first, { ...second, tier: "strong" }] }),
      forward: tides({ steps: [{ ...first, dependsOn: ["write"] }, second] }),
      unknownSkill: tides({ steps: [{ ...first, skills: ["web.teleport"] }, second] })
    }
    const notes = {
      strong: "'strong' is reserved for the planner",
      forward: 'depends on the later step "write"',
      unknownSkill: '"web.teleport"'
    }
    for (const [rule, body] of Object.entries(broken)) {
      const answer = await invoke(alice, "studio.author_generator", body)
      expect(answer, rule).toMatchObject({ ok: true, output: { authored: false, id: null, name: "Tide notes" } })
      expect(at(answer.output, "note"), rule).toContain(notes[rule as keyof typeof notes])
    }
    expect(await rowCounts()).toEqual(before)
  })

  it("refuses an input that names an owner, and writes nothing", async () => {
    const before = await rowCounts()
    const answer = await invoke(alice, "studio.author_generator", tides({ ownerId: bob.being.id }))
    expect(answer).toMatchObject({ ok: false, error: expect.stringContaining("ownerId") })
    expect(await rowCounts()).toEqual(before)
  })
})

describe("a third-party plugin granted 'storage'", () => {
  it("gets no authoring operations, neither in activate nor in a call: only its own keys, in a call", async () => {
    const answer = await invoke(alice, "keeper.peek", {})
    expect(answer).toEqual({
      ok: true,
      output: { atActivate: [], inCall: ["storage"], storage: ["delete", "get", "list", "set"] },
      durationMs: expect.any(Number)
    })
  })
})

describe("studio.author_module", () => {
  const page = "<!doctype html><title>Tides</title><h1>High water at 14:02.</h1>"
  const manifest = JSON.stringify({
    apiVersion: "1.0",
    id: "@studio/tides",
    version: "0.1.0",
    namespace: "tides",
    name: "Tides",
    extensions: [{ kind: "module", id: "today", title: "Tides today", uses: [], document: "index.html" }]
  })

  it("writes a bundle the installer mounts as it is: installed, its place /m/tides.today serves its document", async () => {
    const { node, owner } = context
    const answer = await run(
      owner.client.api.studioSkills.invokeSkill({
        payload: { name: "studio.author_module", input: { manifest, files: { "index.html": page } } }
      })
    )
    expect(answer.output).toMatchObject({ authored: true, installed: false, path: "modules/tides" })
    // The owner moves the authored folder into the plugin folder and installs it, as written.
    const uploads = join(node.dataDir, "uploads")
    const [being] = readdirSync(uploads).filter((entry) =>
      existsSync(join(uploads, entry, "modules", "tides", "plugin.json"))
    )
    cpSync(join(uploads, being!, "modules", "tides"), join(node.dataDir, "plugins", "tides"), { recursive: true })
    await run(owner.client.api.plugins.installPlugin({ payload: { dir: "tides", granted: [] } }))
    const document = await owner.client.raw("GET", `/api/modules/${encodeURIComponent("@studio/tides")}/today/document`)
    expect(document.status).toBe(200)
    expect(document.text).toContain("High water at 14:02.")
    expect((await owner.client.raw("GET", "/m/tides.today")).status).toBe(200)
  })

  it("refuses the older top-level module object, naming the extensions form, and writes nothing", async () => {
    const old = JSON.stringify({
      ...JSON.parse(manifest),
      namespace: "oldtides",
      id: "@studio/oldtides",
      module: { route: "today", title: "T", interface: "index.html" }
    })
    const answer = await run(
      context.owner.client.api.studioSkills.invokeSkill({
        payload: { name: "studio.author_module", input: { manifest: old, files: { "index.html": page } } }
      })
    )
    expect(answer.output).toMatchObject({ authored: false, files: [] })
    expect(String((answer.output as { note: string }).note)).toMatch(
      /Declare the module in extensions.*"kind": "module"/
    )
    expect(
      existsSync(join(context.node.dataDir, "uploads")) &&
        readdirSync(join(context.node.dataDir, "uploads")).some((being) =>
          existsSync(join(context.node.dataDir, "uploads", being, "modules", "oldtides"))
        )
    ).toBe(false)
  })
})
