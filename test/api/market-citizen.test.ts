/**
 * A citizen's agent listing (the first document's buy rules: "for a citizen's listing, a fresh
 * agent carrying their persona"): the owner lists a citizen, a buyer gets a fresh agent of their
 * own wearing the citizen's persona and soul, and the citizen's being is never copied.
 */
import { describe, expect, it } from "vitest"
import { personas } from "../../seeds/personas.ts"
import { refused, registerMember, run } from "../support/node.ts"
import { buy, marketNode, publish, wallet, START } from "./market-support.ts"

const { context, member } = marketNode(3)
const wren = personas.find((persona) => persona.role === "writer")!

const listCitizen = () =>
  run(
    publish(context.owner.client, {
      kind: "agent",
      refId: "citizen-writer",
      title: "Wren writes for you",
      description: "The square's writer, as an agent of your own.",
      priceCredits: 15
    })
  )

describe("a citizen's agent listing", () => {
  it("is the owner's to list: another being is refused, and a citizen that is not one is not found", async () => {
    const bob = await member()
    const notTheirs = await refused(
      publish(bob.client, { kind: "agent", refId: "citizen-writer", title: "Wren", priceCredits: 1 })
    )
    expect(notTheirs).toMatchObject({ status: 403, body: { error: "ref_not_owned" } })
    const unknown = await refused(
      publish(context.owner.client, { kind: "agent", refId: "citizen-nobody", title: "Nobody", priceCredits: 1 })
    )
    expect(unknown).toMatchObject({ status: 404, body: { error: "ref_not_found" } })
  })

  it("delivers a fresh agent carrying the citizen's persona and soul, and never copies the citizen", async () => {
    const listing = await listCitizen()
    const alice = await member()
    const order = await run(buy(alice.client, listing.id))
    expect(order).toMatchObject({ kind: "agent", status: "delivered", buyerId: alice.being.id })
    const agent = await run(alice.client.api.studioAgents.getAgent({ path: { id: order.deliveredId! } }))
    expect(agent).toMatchObject({
      ownerId: alice.being.id,
      name: "Wren",
      role: "writer",
      avatar: wren.avatar,
      description: wren.description,
      tier: wren.tier,
      isPublic: false
    })
    expect(agent.skills).toEqual(expect.arrayContaining([...wren.skills]))
    // The citizen's own soul, compiled for an agent: its voice and values, the agent's rules, not the citizen's.
    expect(agent.systemPrompt).toContain(`You are Wren, the writer of a small studio team. ${wren.description}`)
    expect(agent.systemPrompt).toContain(`Your voice: ${wren.voice}`)
    expect(agent.systemPrompt).toContain(`What you value: ${wren.values.join("; ")}.`)
    expect(agent.systemPrompt).not.toContain("a citizen of this world")
    // A being of Alice's wears the card; the citizen is still the one citizen Wren.
    expect(agent.beingId).not.toBe("citizen-writer")
    const beings = await run(alice.client.api.beings.listBeings())
    expect(beings.filter((being) => being.kind === "citizen" && being.displayName === "Wren")).toHaveLength(1)
    expect(beings.find((being) => being.id === agent.beingId)).toMatchObject({ kind: "agent" })
    expect(await wallet(alice.client)).toMatchObject({ balance: START - 15 })
    // A second copy is refused as for any agent listing.
    expect(await refused(buy(alice.client, listing.id))).toMatchObject({
      status: 409,
      body: { error: "already_owned" }
    })
  })

  it("gives each buyer an agent of their own", async () => {
    const [listing] = await run(
      context.owner.client.api.market.searchListings({ urlParams: { mine: true, kind: "agent", limit: 10, offset: 0 } })
    )
    const carol = await registerMember(context.node, context.owner.client)
    const order = await run(buy(carol.client, listing!.id))
    const agents = await run(carol.client.api.studioAgents.listAgents())
    expect(agents).toEqual([expect.objectContaining({ id: order.deliveredId, name: "Wren", ownerId: carol.being.id })])
  })
})
