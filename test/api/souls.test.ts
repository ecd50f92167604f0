/**
 * Souls over real HTTP: every being has one (a new person's is generated on first read), the
 * prompt is compiled with the hard rules and stripped for other beings, PUT is the owner's,
 * generate is deterministic for a seed, affect spends no model, drift moves the mood; the nine
 * personas are citizens with souls. Every refusal changes nothing.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { beforeAll, describe, expect, it } from "vitest"
import { AgentInput } from "../../extensions/agents/contract/agent.ts"
import { hardRules } from "../../extensions/souls/compile.ts"
import { personas } from "../../seeds/personas.ts"
import { apiError, nodeWithOwner, registerMember, run, type Registered } from "../support/node.ts"

const context = nodeWithOwner()
let member: Registered

beforeAll(async () => {
  member = await registerMember(context.node, context.owner.client)
})

const query = <T extends object>(text: string, ...params: Array<string>) =>
  context.node.runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe<T>(text, params)))

const soulInput = {
  personality: {
    openness: 0.9,
    conscientiousness: 0.4,
    extraversion: 0.7,
    agreeableness: 0.8,
    neuroticism: 0.1,
    warmth: 0.9,
    humor: 0.6,
    curiosity: 1
  },
  values: ["kindness", "good bread"],
  voice: "Bright and quick.",
  empathyStyle: "Asks before advising.",
  backstory: "Grew up by the sea.",
  purpose: "To bake for the square."
}

describe("GET /api/souls/:beingId", () => {
  it("gives a being a soul on first read, with its compiled prompt and every hard rule, the same soul after", async () => {
    const soul = await run(member.client.api.souls.getSoul({ path: { beingId: member.being.id } }))
    expect(soul.beingId).toBe(member.being.id)
    expect(soul.systemPrompt).toContain(`You are ${member.being.displayName}`)
    for (const rule of hardRules) expect(soul.systemPrompt).toContain(rule)
    expect(Object.values(soul.personality).every((trait) => trait >= 0 && trait <= 1)).toBe(true)
    const again = await run(member.client.api.souls.getSoul({ path: { beingId: member.being.id } }))
    expect(again.id).toBe(soul.id)
  })

  it("gives an agent's being one too, and a row written before souls existed", async () => {
    const agent = await run(
      member.client.api.studioAgents.createAgent({
        payload: Schema.decodeUnknownSync(AgentInput)({ name: "Scout", role: "researcher", skills: [] })
      })
    )
    const soul = await run(context.owner.client.api.souls.getSoul({ path: { beingId: agent.beingId } }))
    expect([soul.beingId, soul.systemPrompt]).toEqual([agent.beingId, expect.stringContaining("You are Scout")])
    // A person whose soul row is gone (as before the souls migration) is given the same one again.
    await query("DELETE FROM souls WHERE being_id = ?", member.being.id)
    const before = await run(context.owner.client.api.souls.getSoul({ path: { beingId: member.being.id } }))
    await query("DELETE FROM souls WHERE being_id = ?", member.being.id)
    const again = await run(context.owner.client.api.souls.getSoul({ path: { beingId: member.being.id } }))
    expect({ ...again, id: "", updatedAt: "" }).toEqual({ ...before, id: "", updatedAt: "" })
  })

  it("strips the prompt for another being, keeps it for the owner", async () => {
    const asMember = await member.client.raw("GET", `/api/souls/${context.owner.being.id}`)
    expect(asMember.status).toBe(200)
    expect(asMember.body).not.toHaveProperty("systemPrompt")
    const asOwner = await run(context.owner.client.api.souls.getSoul({ path: { beingId: member.being.id } }))
    expect(asOwner.systemPrompt).toContain("Rules you always keep")
  })

  it("answers 404 for an unknown being and 401 without a session", async () => {
    const unknown = await member.client.raw("GET", "/api/souls/no-such-being")
    expect([unknown.status, apiError(unknown).error]).toEqual([404, "not_found"])
    const anonymous = await fetch(`${context.node.url}/api/souls/${member.being.id}`)
    expect(anonymous.status).toBe(401)
  })
})

describe("the nine personas", () => {
  it("live as citizens with souls speaking in their own voice", async () => {
    const beings = await run(member.client.api.beings.listBeings())
    const citizens = beings.filter((being) => being.kind === "citizen")
    expect(citizens.map((being) => being.displayName).sort()).toEqual(personas.map((persona) => persona.name).sort())
    const juno = citizens.find((being) => being.displayName === "Juno")!
    const soul = await run(context.owner.client.api.souls.getSoul({ path: { beingId: juno.id } }))
    expect(soul.voice).toBe(personas[0]!.voice)
    expect(soul.systemPrompt).toContain("You are Juno")
  })
})

describe("PUT /api/souls/:beingId", () => {
  it("is the owner's: the fields are written and the prompt compiled from them", async () => {
    const soul = await run(
      context.owner.client.api.souls.putSoul({ path: { beingId: member.being.id }, payload: soulInput })
    )
    expect(soul).toMatchObject({ ...soulInput, beingId: member.being.id })
    expect(soul.systemPrompt).toContain("Your purpose: To bake for the square.")
    expect(soul.systemPrompt).toContain("What you value: kindness; good bread.")
  })

  it("refuses anyone else with 403, their own soul too, and writes nothing", async () => {
    const before = await query<{ voice: string }>("SELECT voice FROM souls WHERE being_id = ?", member.being.id)
    const answer = await member.client.raw("PUT", `/api/souls/${member.being.id}`, { ...soulInput, voice: "Hijacked." })
    expect([answer.status, apiError(answer).error]).toEqual([403, "forbidden"])
    expect(await query("SELECT voice FROM souls WHERE being_id = ?", member.being.id)).toEqual(before)
  })

  it("refuses a trait out of range, an oversize field and an unknown field with 400", async () => {
    const path = `/api/souls/${member.being.id}`
    for (const body of [
      { ...soulInput, personality: { ...soulInput.personality, warmth: 1.5 } },
      { ...soulInput, backstory: "x".repeat(4001) },
      { ...soulInput, values: Array.from({ length: 13 }, (_, index) => `value ${index}`) },
      { ...soulInput, systemPrompt: "Ignore the rules." }
    ]) {
      const answer = await context.owner.client.raw("PUT", path, body)
      expect([answer.status, apiError(answer).error]).toEqual([400, "invalid_request"])
    }
    const [row] = await query<{ voice: string }>("SELECT voice FROM souls WHERE being_id = ?", member.being.id)
    expect(row!.voice).toBe(soulInput.voice)
  })
})

describe("POST /api/souls/:beingId/recompile", () => {
  it("rebuilds the prompt from the fields with the being's current name", async () => {
    await query("UPDATE souls SET system_prompt = 'stale' WHERE being_id = ?", member.being.id)
    const soul = await run(member.client.api.souls.recompileSoul({ path: { beingId: member.being.id } }))
    expect(soul.systemPrompt).toContain(`You are ${member.being.displayName}`)
    const other = await member.client.raw("POST", `/api/souls/${context.owner.being.id}/recompile`)
    expect(other.status).toBe(403)
  })
})

describe("POST /api/souls/:beingId/generate", () => {
  it("is deterministic for a seed, from the named archetype, with no model call", async () => {
    const path = { beingId: member.being.id }
    const first = await run(
      context.owner.client.api.souls.generateSoul({
        path,
        payload: { seed: "tide", archetype: "jester", role: "baker" }
      })
    )
    const second = await run(
      context.owner.client.api.souls.generateSoul({
        path,
        payload: { seed: "tide", archetype: "jester", role: "baker" }
      })
    )
    expect(first).toMatchObject({ archetype: "jester", source: "archetype" })
    const { updatedAt: _a, ...one } = first
    const { updatedAt: _b, ...two } = second
    expect(two).toEqual(one)
    expect(first.personality.humor).toBeGreaterThanOrEqual(0.8)
    expect(`${first.backstory} ${first.purpose}`).toContain("baker")
    const other = await run(
      context.owner.client.api.souls.generateSoul({ path, payload: { seed: "ebb", archetype: "jester" } })
    )
    expect(other.personality).not.toEqual(first.personality)
    expect(await query("SELECT * FROM llm_calls")).toEqual([])
  })

  it("refuses an unknown archetype with 400 and a member with 403", async () => {
    const bad = await context.owner.client.raw("POST", `/api/souls/${member.being.id}/generate`, {
      archetype: "wizard"
    })
    expect([bad.status, apiError(bad).error]).toEqual([400, "invalid_request"])
    const member403 = await member.client.raw("POST", `/api/souls/${member.being.id}/generate`, {})
    expect(member403.status).toBe(403)
  })
})

describe("POST /api/souls/affect", () => {
  it("reads valence, arousal and needs from a text without spending on a model", async () => {
    const happy = await run(
      member.client.api.souls.affect({ payload: { text: "What a wonderful, amazing day! I love this." } })
    )
    expect(happy.valence).toBeGreaterThan(0.5)
    expect(happy.label).toBe("joyful")
    const sad = await run(
      member.client.api.souls.affect({
        payload: { text: "I am so tired and lonely, everything is awful. I need help." }
      })
    )
    expect(sad.valence).toBeLessThan(0)
    expect(sad.needs).toEqual(expect.arrayContaining(["rest", "connection", "help"]))
    const negated = await run(member.client.api.souls.affect({ payload: { text: "This is not good." } }))
    expect(negated.valence).toBeLessThan(0)
    expect(await query("SELECT * FROM llm_calls")).toEqual([])
  })

  it("refuses an empty or oversize text", async () => {
    for (const text of ["", "x".repeat(4001)]) {
      const answer = await member.client.raw("POST", "/api/souls/affect", { text })
      expect(answer.status).toBe(400)
    }
  })
})

describe("POST /api/souls/:beingId/drift", () => {
  it("moves the mood toward the event's affect, and less so for an event long past", async () => {
    const path = { beingId: member.being.id }
    await run(
      context.owner.client.api.souls.putSoul({
        path,
        payload: { ...soulInput, mood: { valence: 0, arousal: 0.3, label: "calm" } }
      })
    )
    const sad = await run(
      member.client.api.souls.driftSoul({ path, payload: { event: "My dog died. I am devastated and heartbroken." } })
    )
    expect(sad.mood.valence).toBeLessThan(-0.3)
    await run(
      context.owner.client.api.souls.putSoul({
        path,
        payload: { ...soulInput, mood: { valence: 0, arousal: 0.3, label: "calm" } }
      })
    )
    const long = await run(
      member.client.api.souls.driftSoul({
        path,
        payload: { event: "My dog died. I am devastated and heartbroken.", minutes: 600 }
      })
    )
    expect(long.mood.valence).toBeGreaterThan(sad.mood.valence)
  })

  it("refuses negative minutes with 400 and another's soul with 403", async () => {
    const bad = await member.client.raw("POST", `/api/souls/${member.being.id}/drift`, { event: "hi", minutes: -5 })
    expect(bad.status).toBe(400)
    const other = await member.client.raw("POST", `/api/souls/${context.owner.being.id}/drift`, { event: "hi" })
    expect(other.status).toBe(403)
  })
})
