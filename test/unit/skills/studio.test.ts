/**
 * studio.author_agent and studio.author_generator through the skill runtime: the decoded record
 * and the call's scope handed to the `storage` adapter (a recording stand-in here; the real one,
 * writing rows, is proven on a node in test/api/studio-authoring.test.ts), the adapter's verdict
 * turned into the authored report, an ownerId refused before anything is handed on, and a plain
 * report when no adapter is wired.
 */
import * as Effect from "effect/Effect"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import type { Authored, AuthoringInput } from "../../../extensions/studio/authoring-capability.ts"
import type { CallScope } from "../../../kernel/extensions/context.ts"
import type { SkillTraceEvent } from "../../../kernel/extensions/skill.ts"
import { startSkills, type SkillHarness } from "../../support/skills.ts"

const handed: Array<{
  readonly kind: "agent" | "generator"
  readonly input: AuthoringInput
  readonly scope: CallScope
}> = []

/** Refuses a record named "Refused", as the node refuses an unknown skill. */
const verdict = (input: AuthoringInput, id: string): Authored =>
  input.name === "Refused"
    ? { authored: false, reason: 'No skill named "web.teleport" is registered on this node.' }
    : { authored: true, id, name: String(input.name) }

let skills: SkillHarness
let unwired: SkillHarness

beforeAll(async () => {
  skills = await startSkills({
    adapters: {
      storage: (_plugin, scope) => ({
        createAgent: (input) =>
          Effect.sync(() => {
            handed.push({ kind: "agent", input, scope })
            return verdict(input, "agent-1")
          }),
        createGenerator: (input) =>
          Effect.sync(() => {
            handed.push({ kind: "generator", input, scope })
            return verdict(input, "generator-1")
          })
      })
    }
  })
  unwired = await startSkills()
})
afterAll(() => Promise.all([skills.close(), unwired.close()]))
beforeEach(() => {
  handed.length = 0
})

const traced = () => {
  const events: Array<SkillTraceEvent> = []
  return { events, trace: (event: SkillTraceEvent) => void events.push(event) }
}

const generator = {
  name: "Tide notes",
  description: "Notes about tides.",
  inputsSchema: { type: "object", properties: {} },
  steps: [
    { id: "write", title: "Write", role: "writer", skills: ["docs.write_markdown"], instruction: "Write about tides." }
  ],
  outputKinds: ["markdown"]
}

describe("studio.author_agent", () => {
  it("hands the record, with AgentInput's defaults, to the adapter built for the call, and reports it authored", async () => {
    const { events, trace } = traced()
    const outcome = await skills.invoke(
      "studio.author_agent",
      { name: " Scout ", role: "researcher", skills: ["files.search"] },
      { beingId: "ada", projectId: "p-1", approved: false, trace }
    )
    expect(outcome).toMatchObject({
      ok: true,
      output: { authored: true, id: "agent-1", name: "Scout", note: 'Saved the agent "Scout" to the studio.' }
    })
    expect(handed).toEqual([
      {
        kind: "agent",
        input: {
          name: "Scout",
          role: "researcher",
          description: "",
          avatar: "🤖",
          skills: ["files.search"],
          tier: "cheap",
          systemPrompt: "",
          isPublic: false
        },
        scope: { beingId: "ada", projectId: "p-1", contribution: "studio.author_agent" }
      }
    ])
    expect(events).toEqual([{ kind: "message", text: 'agent authored: "Scout"', data: outcome.output }])
    // Not world-acting: an agent's unapproved call runs and asks nobody.
    expect(skills.asked).toEqual([])
  })

  it("reports a refusal as authored false, the reason in the note, traced as an error", async () => {
    const { events, trace } = traced()
    const outcome = await skills.invoke(
      "studio.author_agent",
      { name: "Refused", role: "r", skills: ["web.teleport"] },
      { trace }
    )
    expect(outcome).toMatchObject({
      ok: true,
      output: {
        authored: false,
        id: null,
        name: "Refused",
        note: 'Nothing was written: No skill named "web.teleport" is registered on this node.'
      }
    })
    expect(events.map((event) => event.kind)).toEqual(["error"])
  })

  it("refuses an input naming an owner before the adapter sees it", async () => {
    for (const field of ["ownerId", "beingId"]) {
      const outcome = await skills.invoke("studio.author_agent", {
        name: "Scout",
        role: "r",
        skills: [],
        [field]: "bob"
      })
      expect(outcome).toMatchObject({ ok: false, error: expect.stringContaining(field) })
    }
    expect(handed).toEqual([])
  })

  it("with no adapter wired, writes nothing and says so", async () => {
    const outcome = await unwired.invoke("studio.author_agent", { name: "Scout", role: "r", skills: [] })
    expect(outcome).toMatchObject({
      ok: true,
      output: { authored: false, id: null, name: "Scout", note: expect.stringContaining("not wired") }
    })
  })
})

describe("studio.author_generator", () => {
  it("hands the generator body, defaults filled, to the adapter and reports it authored", async () => {
    const outcome = await skills.invoke("studio.author_generator", generator, { beingId: "bo" })
    expect(outcome).toMatchObject({ ok: true, output: { authored: true, id: "generator-1", name: "Tide notes" } })
    expect(handed).toHaveLength(1)
    expect(handed[0]).toMatchObject({
      kind: "generator",
      input: {
        name: "Tide notes",
        icon: "✨",
        priceCredits: 0,
        isPublic: true,
        steps: [{ id: "write", tier: "cheap", dependsOn: [] }]
      },
      scope: { beingId: "bo", projectId: null, contribution: "studio.author_generator" }
    })
  })

  it("refuses an ownerId, and a step field the generator body does not know", async () => {
    const withOwner = await skills.invoke("studio.author_generator", { ...generator, ownerId: "bob" })
    expect(withOwner).toMatchObject({ ok: false, error: expect.stringContaining("ownerId") })
    const misspelt = await skills.invoke("studio.author_generator", {
      ...generator,
      steps: [{ ...generator.steps[0], dependson: [] }]
    })
    expect(misspelt).toMatchObject({ ok: false, error: expect.stringContaining("dependson") })
    expect(handed).toEqual([])
  })
})

describe("the studio family", () => {
  it("publishes its four skills, none world-acting, with inputs that name no owner", async () => {
    const defs = (await skills.list()).filter((def) => def.family === "studio")
    expect(defs.map((def) => [def.name, def.worldActing, def.pluginId])).toEqual([
      ["studio.author_agent", false, "@svc/studio"],
      ["studio.author_generator", false, "@svc/studio"],
      ["studio.author_skill_bundle", false, "@svc/studio"],
      ["studio.author_module", false, "@svc/studio"]
    ])
    for (const def of defs) {
      const text = JSON.stringify(def.inputSchema)
      expect(text).not.toContain("ownerId")
      expect(def.outputSchema).toMatchObject({ required: expect.arrayContaining(["authored", "id", "name", "note"]) })
    }
  })
})
