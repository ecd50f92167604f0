/**
 * Agent cards over real HTTP: creating one (the spec's defaults, the baseline skills, refusals
 * that write nothing), reading, editing and deleting them.
 */
import * as Schema from "effect/Schema"
import type * as Effect from "effect/Effect"
import { describe, expect, it } from "vitest"
import { baselineSkills } from "../../extensions/agents/contract/baseline.ts"
import { Agent, AgentInput, type AgentPatch } from "../../extensions/agents/contract/agent.ts"
import { apiError, bodyAs, refused, registerMember, run } from "../support/node.ts"
import { worldActingSkill } from "../support/world-acting-plugin.ts"
import { agentsNode, scout } from "./agents-support.ts"

const { context, query, create, count } = agentsNode()

const agentCount = () => count("SELECT count(*) AS n FROM agents")

describe("POST /api/studio/agents", () => {
  it("creates the card with the spec's defaults, worn by a newly raised agent being", async () => {
    // Raw, with only what the person chose: the node fills in the spec's defaults (the typed client would send them
    // itself).
    const answer = await context.member.client.raw("POST", "/api/studio/agents", scout)
    expect(answer.status).toBe(200)
    expect(answer.body).toEqual({
      id: expect.any(String),
      ownerId: context.member.being.id,
      beingId: expect.any(String),
      name: "Scout",
      role: "researcher",
      description: "",
      avatar: "🤖",
      skills: expect.any(Array),
      tier: "cheap",
      systemPrompt: "",
      isPublic: false,
      createdAt: expect.any(String)
    })
    const agent = bodyAs(Agent, answer)
    expect(agent.beingId).not.toBe(context.member.being.id)
    const [being] = await query<{
      kind: string
      handle: string
      displayName: string
      email: string | null
      passwordHash: string | null
    }>(
      "SELECT kind, handle, display_name AS displayName, email, password_hash AS passwordHash FROM beings WHERE id = ?",
      agent.beingId
    )
    expect(being).toEqual({
      kind: "agent",
      handle: expect.stringMatching(/^agent_[a-z0-9]{10}$/),
      displayName: "Scout",
      email: null,
      passwordHash: null
    })
  })

  it("adds every registered baseline skill after the chosen ones", async () => {
    const agent = await create(context.member.client, {
      ...scout,
      skills: ["docs.write_markdown", "files.read", "docs.write_markdown"]
    })
    const baseline = baselineSkills.filter((name) => context.registered.includes(name))
    expect(baseline).toEqual(
      expect.arrayContaining(["web.search", "web.fetch", "math.evaluate", "files.read", "files.write", "files.list"])
    )
    expect(agent.skills).toEqual([
      "docs.write_markdown",
      "files.read",
      ...baseline.filter((name) => name !== "files.read")
    ])
  })

  it("accepts any registered skill, a plugin's world-acting one too", async () => {
    const agent = await create(context.member.client, { ...scout, skills: [worldActingSkill] })
    expect(agent.skills[0]).toBe(worldActingSkill)
  })

  it("spends no model call: the node has no model key and creating works", async () => {
    const before = await count("SELECT count(*) AS n FROM llm_calls")
    await create(context.member.client, { ...scout, systemPrompt: "Be brief.", tier: "standard" })
    expect(await count("SELECT count(*) AS n FROM llm_calls")).toBe(before)
    expect((await run(context.member.client.api.llm.usage())).calls).toBe(0)
  })

  it("refuses an unknown skill, naming it, and writes nothing", async () => {
    const before = await agentCount()
    const answer = await refused(
      context.member.client.api.studioAgents.createAgent({
        payload: Schema.decodeUnknownSync(AgentInput)({
          ...scout,
          skills: ["files.read", "files.teleport", "web.teleport"]
        })
      })
    )
    expect(answer.status).toBe(400)
    expect(answer.body).toMatchObject({
      error: "unknown_skill",
      details: { names: ["files.teleport", "web.teleport"] }
    })
    expect(answer.body.message).toContain('"files.teleport"')
    expect(await agentCount()).toBe(before)
  })

  it("refuses a body that names a being, an owner or an id: who wears the card is the server's choice", async () => {
    const beings = await count("SELECT count(*) AS n FROM beings")
    // Bodies the contract's schema refuses before they leave the typed client: sent raw.
    for (const field of ["beingId", "ownerId", "id", "createdAt"]) {
      const answer = await context.member.client.raw("POST", "/api/studio/agents", {
        ...scout,
        [field]: context.owner.being.id
      })
      expect(answer.status, field).toBe(400)
      expect(apiError(answer).error).toBe("invalid_request")
      expect(apiError(answer).details, field).toEqual([expect.objectContaining({ path: [field] })])
    }
    expect(await count("SELECT count(*) AS n FROM beings")).toBe(beings)
  })

  it("refuses a malformed body", async () => {
    for (const body of [
      {},
      { ...scout, name: "  " },
      { ...scout, skills: "files.read" },
      { ...scout, tier: "huge" },
      { name: "x", role: "y" },
      "not json"
    ]) {
      const answer = await context.member.client.raw("POST", "/api/studio/agents", body)
      expect(answer.status, JSON.stringify(body)).toBe(400)
      expect(apiError(answer).error).toBe("invalid_request")
    }
  })
})

describe("reading agents", () => {
  it("lists the caller's own cards and everyone's public ones as AgentSummary", async () => {
    const mine = await create(context.member.client, { ...scout, name: "Private Scout" })
    const shared = await create(context.owner.client, { ...scout, name: "Shared", isPublic: true })
    const hidden = await create(context.owner.client, { ...scout, name: "Owner's own" })
    const list = await run(context.member.client.api.studioAgents.listAgents())
    const ids = list.map((agent) => agent.id)
    expect(ids).toEqual(expect.arrayContaining([mine.id, shared.id]))
    expect(ids).not.toContain(hidden.id)
    // The summary's fields as the wire carried them: the typed client's decoding would drop one the contract does not
    // list.
    const wire = await context.member.client.raw("GET", "/api/studio/agents")
    const sharedOnWire = (wire.body as ReadonlyArray<{ id: string }>).find((agent) => agent.id === shared.id)
    expect(Object.keys(sharedOnWire ?? {}).sort()).toEqual([
      "avatar",
      "description",
      "id",
      "name",
      "ownerId",
      "role",
      "skills",
      "tier"
    ])
  })

  it("shows the full record of one's own or a public card; another's private card is 403", async () => {
    const shared = await create(context.owner.client, { ...scout, isPublic: true, systemPrompt: "Shared prompt" })
    const hidden = await create(context.owner.client, { ...scout, systemPrompt: "Secret prompt" })
    const agents = context.member.client.api.studioAgents
    expect(await run(agents.getAgent({ path: { id: shared.id } }))).toMatchObject({
      id: shared.id,
      systemPrompt: "Shared prompt",
      isPublic: true
    })
    const refusal = await refused(agents.getAgent({ path: { id: hidden.id } }))
    expect(refusal.status).toBe(403)
    expect(refusal.body.error).toBe("forbidden")
    // The whole refusal as the wire carried it.
    expect((await context.member.client.raw("GET", `/api/studio/agents/${hidden.id}`)).text).not.toContain(
      "Secret prompt"
    )
    expect((await run(context.owner.client.api.studioAgents.getAgent({ path: { id: hidden.id } }))).systemPrompt).toBe(
      "Secret prompt"
    )
  })

  it("answers 404 for an id that names no agent", async () => {
    const agents = context.member.client.api.studioAgents
    const path = { id: "no-such-agent" }
    const calls: ReadonlyArray<readonly [string, Effect.Effect<unknown, unknown>]> = [
      ["GET", agents.getAgent({ path })],
      ["PUT", agents.editAgent({ path, payload: { name: "x" } })],
      ["DELETE", agents.deleteAgent({ path })]
    ]
    for (const [method, call] of calls) {
      const answer = await refused(call)
      expect(answer.status, method).toBe(404)
      expect(answer.body.error).toBe("not_found")
    }
  })
})

describe("PUT /api/studio/agents/:id", () => {
  it("changes only the fields given, and renames the being that wears the card", async () => {
    // A newcomer, so the being wears this card alone (a being wearing several keeps its name).
    const { client } = await registerMember(context.node, context.owner.client)
    const agent = await create(client, { ...scout, description: "Finds things" })
    const edit = (payload: Schema.Schema.Type<typeof AgentPatch>) =>
      run(client.api.studioAgents.editAgent({ path: { id: agent.id }, payload }))
    const answer = await edit({ name: "Ranger", skills: ["files.write"], isPublic: true })
    expect(answer).toMatchObject({
      id: agent.id,
      beingId: agent.beingId,
      name: "Ranger",
      role: "researcher",
      description: "Finds things",
      isPublic: true
    })
    expect(answer.skills[0]).toBe("files.write")
    expect(answer.skills).not.toContain("files.search")
    expect(
      (await query<{ name: string }>("SELECT display_name AS name FROM beings WHERE id = ?", agent.beingId))[0]!.name
    ).toBe("Ranger")
    expect(await edit({})).toEqual(answer)
  })

  it("refuses an unknown skill, a being named in the body and a non-owner, changing nothing", async () => {
    const agent = await create(context.member.client, { ...scout, isPublic: true })
    const path = { id: agent.id }
    const unknown = await refused(
      context.member.client.api.studioAgents.editAgent({ path, payload: { skills: ["files.teleport"] } })
    )
    expect(unknown.body).toMatchObject({ error: "unknown_skill", details: { names: ["files.teleport"] } })
    // A field the contract's schema refuses before it leaves the typed client: sent raw.
    const being = await context.member.client.raw("PUT", `/api/studio/agents/${agent.id}`, {
      beingId: context.owner.being.id
    })
    expect(being.status).toBe(400)
    const stranger = await refused(
      context.owner.client.api.studioAgents.editAgent({ path, payload: { name: "Mine now" } })
    )
    expect(stranger.status).toBe(403)
    expect(await run(context.member.client.api.studioAgents.getAgent({ path }))).toEqual(agent)
  })
})

describe("DELETE /api/studio/agents/:id", () => {
  it("deletes the card and the being raised for it; only its owner may", async () => {
    // A newcomer, so no other card of the persona is worn by the same being.
    const { client } = await registerMember(context.node, context.owner.client)
    const agent = await create(client, { ...scout, isPublic: true })
    const path = { id: agent.id }
    expect((await refused(context.owner.client.api.studioAgents.deleteAgent({ path }))).status).toBe(403)
    expect(await run(client.api.studioAgents.deleteAgent({ path }))).toEqual({ ok: true })
    expect((await refused(client.api.studioAgents.getAgent({ path }))).status).toBe(404)
    expect(await query("SELECT id FROM beings WHERE id = ?", agent.beingId)).toEqual([])
  })
})
