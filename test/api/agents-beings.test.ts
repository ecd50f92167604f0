import * as Effect from "effect/Effect"
import { beforeAll, describe, expect, it } from "vitest"
import { personas } from "../../seeds/personas.ts"
import { baselineSkills } from "../../extensions/agents/contract/baseline.ts"
import { assembleTeam, type RoleNeed } from "../../actors/project/team-assembly.ts"
import { AgentSoulsLive, SavedAgentsLive } from "../../actors/project/port-bindings.ts"
import { registerMember, run, type Registered } from "../support/node.ts"
import { listingInput } from "./market-support.ts"
import { agentsNode } from "./agents-support.ts"

const { context, query, create, count } = agentsNode()

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
        skills: ["docs.write_markdown", ...baselineSkills.filter((name) => context.registered.includes(name))],
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
    await create(context.member.client, { name: "Public editor", role: "editor", skills: [], isPublic: true })
    const [editor] = await assemble([{ role: "editor", skills: [] }], owner.being.id)
    expect(editor.source).toBe("persona")
  })
})

describe("the built-in personas on this node", () => {
  it("name only skills the registry holds", () => {
    for (const persona of personas)
      expect(context.registered, persona.role).toEqual(expect.arrayContaining([...persona.skills]))
  })
})
