import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { join } from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import { personas } from "../../seeds/personas.ts"
import { baselineSkills } from "../../extensions/agents/contract/baseline.ts"
import { assembleTeam, type RoleNeed } from "../../actors/project/team-assembly.ts"
import { AgentSoulsLive, SavedAgentsLive } from "../../actors/project/port-bindings.ts"
import { Agent, AgentInput, type AgentPatch } from "../../extensions/agents/contract/agent.ts"
import {
  apiError,
  bodyAs,
  type Client,
  nodeWithOwner,
  refused,
  registerMember,
  run,
  type Registered
} from "../support/node.ts"
import { worldActingSkill, writeWorldActingPlugin } from "../support/world-acting-plugin.ts"
import { listingInput } from "./market-support.ts"

const context = nodeWithOwner((dataDir) => ({ pluginDir: join(dataDir, "plugins") }))
let member: Registered
let registered: Array<string>

beforeAll(async () => {
  member = await registerMember(context.node, context.owner.client)
  writeWorldActingPlugin(join(context.node.dataDir, "plugins"))
  await run(
    context.owner.client.api.plugins.installPlugin({
      payload: { dir: "courier", granted: ["world-acting", "filesystem"] }
    })
  )
  registered = (await run(member.client.api.studioSkills.listSkills())).map((skill) => skill.name)
})

const query = <T extends object>(text: string, ...params: Array<string>) =>
  context.node.runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe<T>(text, params)))

const scout = { name: "Scout", role: "researcher", skills: ["files.search"] }

/** Creates a card; the fields `body` leaves out take the contract's defaults. */
const create = (client: Client = member.client, body: Record<string, unknown> = scout) =>
  run(client.api.studioAgents.createAgent({ payload: Schema.decodeUnknownSync(AgentInput)(body) }))

const count = async (text: string) => (await query<{ n: number }>(text))[0]!.n

const agentCount = () => count("SELECT count(*) AS n FROM agents")

describe("POST /api/studio/agents", () => {
  it("creates the card with the spec's defaults, worn by a newly raised agent being", async () => {
    // Raw, with only what the person chose: the node fills in the spec's defaults (the typed client would send them
    // itself).
    const answer = await member.client.raw("POST", "/api/studio/agents", scout)
    expect(answer.status).toBe(200)
    expect(answer.body).toEqual({
      id: expect.any(String),
      ownerId: member.being.id,
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
    expect(agent.beingId).not.toBe(member.being.id)
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
    const agent = await create(member.client, {
      ...scout,
      skills: ["docs.write_markdown", "files.read", "docs.write_markdown"]
    })
    const baseline = baselineSkills.filter((name) => registered.includes(name))
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
    const agent = await create(member.client, { ...scout, skills: [worldActingSkill] })
    expect(agent.skills[0]).toBe(worldActingSkill)
  })

  it("spends no model call: the node has no model key and creating works", async () => {
    const before = await count("SELECT count(*) AS n FROM llm_calls")
    await create(member.client, { ...scout, systemPrompt: "Be brief.", tier: "standard" })
    expect(await count("SELECT count(*) AS n FROM llm_calls")).toBe(before)
    expect((await run(member.client.api.llm.usage())).calls).toBe(0)
  })

  it("refuses an unknown skill, naming it, and writes nothing", async () => {
    const before = await agentCount()
    const answer = await refused(
      member.client.api.studioAgents.createAgent({
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
      const answer = await member.client.raw("POST", "/api/studio/agents", {
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
      const answer = await member.client.raw("POST", "/api/studio/agents", body)
      expect(answer.status, JSON.stringify(body)).toBe(400)
      expect(apiError(answer).error).toBe("invalid_request")
    }
  })
})

describe("reading agents", () => {
  it("lists the caller's own cards and everyone's public ones as AgentSummary", async () => {
    const mine = await create(member.client, { ...scout, name: "Private Scout" })
    const shared = await create(context.owner.client, { ...scout, name: "Shared", isPublic: true })
    const hidden = await create(context.owner.client, { ...scout, name: "Owner's own" })
    const list = await run(member.client.api.studioAgents.listAgents())
    const ids = list.map((agent) => agent.id)
    expect(ids).toEqual(expect.arrayContaining([mine.id, shared.id]))
    expect(ids).not.toContain(hidden.id)
    // The summary's fields as the wire carried them: the typed client's decoding would drop one the contract does not
    // list.
    const wire = await member.client.raw("GET", "/api/studio/agents")
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
    const agents = member.client.api.studioAgents
    expect(await run(agents.getAgent({ path: { id: shared.id } }))).toMatchObject({
      id: shared.id,
      systemPrompt: "Shared prompt",
      isPublic: true
    })
    const refusal = await refused(agents.getAgent({ path: { id: hidden.id } }))
    expect(refusal.status).toBe(403)
    expect(refusal.body.error).toBe("forbidden")
    // The whole refusal as the wire carried it.
    expect((await member.client.raw("GET", `/api/studio/agents/${hidden.id}`)).text).not.toContain("Secret prompt")
    expect((await run(context.owner.client.api.studioAgents.getAgent({ path: { id: hidden.id } }))).systemPrompt).toBe(
      "Secret prompt"
    )
  })

  it("answers 404 for an id that names no agent", async () => {
    const agents = member.client.api.studioAgents
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
    const agent = await create(member.client, { ...scout, isPublic: true })
    const path = { id: agent.id }
    const unknown = await refused(
      member.client.api.studioAgents.editAgent({ path, payload: { skills: ["files.teleport"] } })
    )
    expect(unknown.body).toMatchObject({ error: "unknown_skill", details: { names: ["files.teleport"] } })
    // A field the contract's schema refuses before it leaves the typed client: sent raw.
    const being = await member.client.raw("PUT", `/api/studio/agents/${agent.id}`, { beingId: context.owner.being.id })
    expect(being.status).toBe(400)
    const stranger = await refused(
      context.owner.client.api.studioAgents.editAgent({ path, payload: { name: "Mine now" } })
    )
    expect(stranger.status).toBe(403)
    expect(await run(member.client.api.studioAgents.getAgent({ path }))).toEqual(agent)
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

describe("the beings that wear the cards", () => {
  const agentBeings = () => count("SELECT count(*) AS n FROM beings WHERE kind = 'agent'")
  const nameOf = async (beingId: string) =>
    (await query<{ name: string }>("SELECT display_name AS name FROM beings WHERE id = ?", beingId))[0]?.name

  it("has the caller's cards of one persona worn by one being, raised with the first", async () => {
    const { client } = await registerMember(context.node, context.owner.client)
    const before = await agentBeings()
    const first = await create(client, { name: "Wren", role: "writer", skills: [] })
    // `copywriter` falls to the writer persona too.
    const second = await create(client, { name: "Quill", role: "Copywriter", skills: ["docs.write_markdown"] })
    expect(second.beingId).toBe(first.beingId)
    expect(await agentBeings()).toBe(before + 1)
    expect(await nameOf(first.beingId)).toBe("Wren")
    // An edit of one card does not rename a being that wears another.
    await run(client.api.studioAgents.editAgent({ path: { id: second.id }, payload: { name: "Nib" } }))
    expect(await nameOf(first.beingId)).toBe("Wren")
  })

  it("raises another being for another persona, and never wears another caller's being", async () => {
    const alice = await registerMember(context.node, context.owner.client)
    const bob = await registerMember(context.node, context.owner.client)
    const writer = await create(alice.client, { name: "Wren", role: "writer", skills: [] })
    const engineer = await create(alice.client, { name: "Ada", role: "engineer", skills: [] })
    const bobs = await create(bob.client, { name: "Wren", role: "writer", skills: [] })
    expect(new Set([writer.beingId, engineer.beingId, bobs.beingId]).size).toBe(3)
    for (const being of [writer.beingId, engineer.beingId, bobs.beingId]) {
      expect(being).not.toBe(alice.being.id)
      expect(being).not.toBe(bob.being.id)
    }
    // Bob's next writer card is his own being's, even while Alice's writer card is public.
    await run(alice.client.api.studioAgents.editAgent({ path: { id: writer.id }, payload: { isPublic: true } }))
    expect((await create(bob.client, { name: "Penn", role: "writer", skills: [] })).beingId).toBe(bobs.beingId)
  })

  it("moves an edited card to the being of its new persona, deleting the old being once it wears nothing", async () => {
    const { client } = await registerMember(context.node, context.owner.client)
    const writer = await create(client, { name: "Wren", role: "writer", skills: [] })
    const engineer = await create(client, { name: "Ada", role: "engineer", skills: [] })
    const moved = await run(
      client.api.studioAgents.editAgent({ path: { id: writer.id }, payload: { role: "developer" } })
    )
    expect(moved.beingId).toBe(engineer.beingId)
    expect(await nameOf(writer.beingId)).toBeUndefined()
  })

  it("delivers a bought card worn by the buyer's own being of its persona, never the seller's", async () => {
    const alice = await registerMember(context.node, context.owner.client)
    const bob = await registerMember(context.node, context.owner.client)
    const sold = await create(alice.client, {
      name: "Navigator",
      role: "planner",
      skills: [],
      systemPrompt: "Plan well."
    })
    // Bob already saved a lead of his own (`planner` and `coordinator` both fall to the lead persona).
    const own = await create(bob.client, { name: "Juno", role: "coordinator", skills: [] })
    const listing = await run(
      alice.client.api.market.publishListing({
        payload: listingInput({ kind: "agent", refId: sold.id, title: "Navigator", priceCredits: 1 })
      })
    )
    const order = await run(bob.client.api.market.buyListing({ path: { id: listing.id } }))
    const copy = await run(bob.client.api.studioAgents.getAgent({ path: { id: order.deliveredId! } }))
    expect(copy).toMatchObject({
      ownerId: bob.being.id,
      name: "Navigator",
      systemPrompt: "Plan well.",
      beingId: own.beingId
    })
    expect(await run(alice.client.api.studioAgents.getAgent({ path: { id: sold.id } }))).toMatchObject({
      beingId: sold.beingId
    })
    expect(await nameOf(sold.beingId)).toBe("Navigator")
  })

  it("keeps the being while it wears another card, and deletes it with the last", async () => {
    const { client } = await registerMember(context.node, context.owner.client)
    const first = await create(client, { name: "Iris", role: "researcher", skills: [] })
    const second = await create(client, { name: "Scout", role: "researcher", skills: [] })
    expect(await run(client.api.studioAgents.deleteAgent({ path: { id: first.id } }))).toEqual({ ok: true })
    expect(await nameOf(first.beingId)).toBe("Iris")
    expect(await run(client.api.studioAgents.getAgent({ path: { id: second.id } }))).toMatchObject({
      beingId: first.beingId
    })
    expect(await run(client.api.studioAgents.deleteAgent({ path: { id: second.id } }))).toEqual({ ok: true })
    expect(await nameOf(first.beingId)).toBeUndefined()
  })
})

describe("assembleTeam", () => {
  const assemble = (roles: ReadonlyArray<RoleNeed>, ownerId: string) =>
    context.node.runtime.runPromise(
      assembleTeam(roles, ownerId, "project-1").pipe(Effect.provide([SavedAgentsLive, AgentSoulsLive]))
    )
  let owner: Registered

  beforeAll(async () => {
    owner = await registerMember(context.node, context.owner.client)
  })

  it("reuses the owner's saved agent whose role matches and whose skills cover the need, the tightest fit", async () => {
    const broad = await create(owner.client, {
      name: "Broad",
      role: "Writer",
      skills: ["docs.write_markdown", "files.search"]
    })
    const tight = await create(owner.client, { name: "Tight", role: "writer", skills: ["docs.write_markdown"] })
    const [member] = await assemble(
      [{ role: " WRITER ", skills: ["docs.write_markdown", "files.read"] }],
      owner.being.id
    )
    expect(member).toMatchObject({ role: " WRITER ", source: "saved", agent: { id: tight.id, beingId: tight.beingId } })
    const [searching] = await assemble([{ role: "writer", skills: ["files.search"] }], owner.being.id)
    expect(searching).toMatchObject({ source: "saved", agent: { id: broad.id } })
  })

  it("falls back to the role's persona when no saved agent fits, with the needed skills and the baseline", async () => {
    await create(owner.client, { name: "Narrow", role: "analyst", skills: [] })
    const writer = personas.find((persona) => persona.role === "writer")!
    const team = await assemble(
      [
        { role: "analyst", skills: ["docs.write_markdown"] },
        { role: "Senior copywriter", skills: [] }
      ],
      owner.being.id
    )
    const analyst = personas.find((persona) => persona.role === "analyst")!
    expect(team[0]).toEqual({
      role: "analyst",
      source: "persona",
      agent: {
        ownerId: owner.being.id,
        persona: "analyst",
        name: analyst.name,
        role: "analyst",
        description: analyst.description,
        avatar: analyst.avatar,
        skills: ["docs.write_markdown", ...baselineSkills.filter((name) => registered.includes(name))],
        tier: analyst.tier,
        systemPrompt: expect.stringContaining(`You are ${analyst.name}, the analyst of a small studio team.`)
      }
    })
    expect(team[1]).toMatchObject({
      role: "Senior copywriter",
      source: "persona",
      agent: { persona: "writer", name: writer.name }
    })
    expect(team[1].source === "persona" && team[1].agent.skills.slice(0, writer.skills.length)).toEqual(writer.skills)
  })

  it("never reuses another being's agent, even a public one", async () => {
    await create(member.client, { name: "Public editor", role: "editor", skills: [], isPublic: true })
    const [editor] = await assemble([{ role: "editor", skills: [] }], owner.being.id)
    expect(editor.source).toBe("persona")
  })
})

describe("the built-in personas on this node", () => {
  it("name only skills the registry holds", () => {
    for (const persona of personas)
      expect(registered, persona.role).toEqual(expect.arrayContaining([...persona.skills]))
  })
})
