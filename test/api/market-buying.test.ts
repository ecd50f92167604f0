/**
 * The market over real HTTP, selling: buying with its refusals and its delivery by kind, the
 * events and celebrations after a buy, and reviews.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import { describe, expect, it } from "vitest"
import { LiveTab } from "../support/live.ts"
import { refused, run, type Client } from "../support/node.ts"
import {
  buy,
  createGenerator,
  ledgerState,
  listingUpdate,
  market,
  marketNode,
  START,
  publish,
  sellGenerator,
  wallet
} from "./market-support.ts"

const { context, member } = marketNode(16)

describe("buying", () => {
  it("moves the price, counts the sale, delivers a private copy with a free slug, and tells both sides", async () => {
    const alice = await member()
    const bob = await member()
    const { generator, listing } = await sellGenerator(alice.client, "Harbour log", 40)
    // Bob already has a generator of that name, so his copy's slug must be another.
    const bobs = await createGenerator(bob.client, "Harbour log")
    const aliceTab = await LiveTab.open(context.node, alice.client)
    const bobTab = await LiveTab.open(context.node, bob.client)

    const order = await run(buy(bob.client, listing.id))
    expect(order).toMatchObject({
      listingId: listing.id,
      buyerId: bob.being.id,
      sellerId: alice.being.id,
      kind: "generator",
      priceCredits: 40,
      status: "delivered"
    })
    const copy = await run(bob.client.api.studioGenerators.getGenerator({ path: { id: order.deliveredId! } }))
    expect(copy).toMatchObject({ ownerId: bob.being.id, isPublic: false, name: "Harbour log", steps: generator.steps })
    expect(copy.id).not.toBe(generator.id)
    expect(copy.slug).not.toBe(bobs.slug)
    expect(copy.slug).not.toBe(generator.slug)

    expect(await wallet(bob.client)).toMatchObject({ balance: START - 40, spent: 40, earned: 0 })
    expect(await wallet(alice.client)).toMatchObject({ balance: START + 40, earned: 40, spent: 0 })
    expect((await run(market(bob.client).getListing({ path: { id: listing.id } }))).sales).toBe(1)

    const bobWallet = await bobTab.nextOf("wallet.updated")
    expect(bobWallet.wallet).toMatchObject({ beingId: bob.being.id, balance: START - 40 })
    expect((await aliceTab.nextOf("wallet.updated")).wallet).toMatchObject({
      beingId: alice.being.id,
      balance: START + 40
    })
    expect((await bobTab.nextOf("signal.created", (f) => f.signal.kind === "celebration")).signal.title).toContain(
      "Harbour log"
    )
    expect((await aliceTab.nextOf("signal.created", (f) => f.signal.kind === "celebration")).signal.title).toContain(
      "Harbour log"
    )
    await Promise.all([aliceTab.close(), bobTab.close()])

    const [bought] = await run(market(bob.client).orders({ urlParams: { limit: 50, offset: 0, as: "buyer" } }))
    expect(bought).toEqual(order)
    const [sold] = await run(market(alice.client).orders({ urlParams: { limit: 50, offset: 0, as: "seller" } }))
    expect(sold).toEqual(order)
    const entries = await run(market(bob.client).ledger({ urlParams: { limit: 50, offset: 0 } }))
    expect(entries[0]).toMatchObject({
      amount: -40,
      counterparty: alice.being.id,
      reason: "purchase",
      orderId: order.id
    })
    // A page further on: the starting credit, the older entry.
    expect(await run(market(bob.client).ledger({ urlParams: { limit: 1, offset: 1 } }))).toEqual([
      expect.objectContaining({ reason: "starting_credit", amount: START })
    ])
    expect((await ledgerState(context.node)).total).toBe(0)
  })

  it("refuses one's own listing, a second copy, an inactive listing and a price beyond the wallet, changing nothing", async () => {
    const alice = await member()
    const bob = await member()
    const { listing } = await sellGenerator(alice.client, "Knots", 5)
    expect(await refused(buy(alice.client, listing.id))).toMatchObject({ status: 409, body: { error: "own_listing" } })
    await run(buy(bob.client, listing.id))
    expect(await refused(buy(bob.client, listing.id))).toMatchObject({ status: 409, body: { error: "already_owned" } })

    const dear = await sellGenerator(alice.client, "Sails", START + 1)
    expect(await refused(buy(bob.client, dear.listing.id))).toMatchObject({
      status: 409,
      body: { error: "insufficient_credits", details: { balance: START - 5, price: START + 1 } }
    })
    const paused = await sellGenerator(alice.client, "Oars", 1)
    await run(
      market(alice.client).updateListing({
        path: { id: paused.listing.id },
        payload: listingUpdate({
          kind: "generator",
          refId: paused.generator.id,
          title: "Oars",
          priceCredits: 1,
          status: "paused"
        })
      })
    )
    expect(await refused(buy(bob.client, paused.listing.id))).toMatchObject({
      status: 409,
      body: { error: "listing_inactive" }
    })
    expect(await refused(buy(bob.client, "nope"))).toMatchObject({ status: 404, body: { error: "listing_not_found" } })

    expect(await wallet(bob.client)).toMatchObject({ balance: START - 5, spent: 5 })
    const orders = await run(market(bob.client).orders({ urlParams: { limit: 50, offset: 0, as: "buyer" } }))
    expect(orders.map((o) => o.title)).toEqual(["Knots"])
  })

  it("marks a listing sold out when what it sold is gone, and takes no credit", async () => {
    const alice = await member()
    const bob = await member()
    const { generator, listing } = await sellGenerator(alice.client, "Lighthouse", 7)
    await run(alice.client.api.studioGenerators.deleteGenerator({ path: { id: generator.id } }))
    expect(await refused(buy(bob.client, listing.id))).toMatchObject({
      status: 409,
      body: { error: "listing_sold_out" }
    })
    expect((await run(market(bob.client).getListing({ path: { id: listing.id } }))).status).toBe("sold_out")
    expect((await wallet(bob.client)).balance).toBe(START)
  })

  it("delivers an agent copy, a theme copy not activated, a skill grant with an equipped agent, and a generator for a listing with nothing to copy", async () => {
    const alice = await member()
    const bob = await member()
    const agent = await run(
      alice.client.api.studioAgents.createAgent({
        payload: {
          name: "Navigator",
          role: "planner",
          description: "Plans routes.",
          avatar: "🧭",
          skills: ["web.search"],
          tier: "cheap",
          systemPrompt: "Plan well.",
          isPublic: false
        }
      })
    )
    const agentListing = await run(
      publish(alice.client, { kind: "agent", refId: agent.id, title: "Navigator", priceCredits: 3 })
    )
    const agentOrder = await run(buy(bob.client, agentListing.id))
    const agentCopy = await run(bob.client.api.studioAgents.getAgent({ path: { id: agentOrder.deliveredId! } }))
    expect(agentCopy).toMatchObject({
      ownerId: bob.being.id,
      name: "Navigator",
      systemPrompt: "Plan well.",
      isPublic: false
    })
    expect(agentCopy.beingId).not.toBe(agent.beingId)

    const themeId = `theme-${Date.now()}`
    await context.node.runtime.runPromise(
      Effect.flatMap(
        SqlClient.SqlClient,
        (sql) => sql`INSERT INTO being_themes
      (id, owner_id, name, color_scheme, tokens, created_at) VALUES (${themeId}, ${alice.being.id}, 'Dusk', 'dark',
      ${JSON.stringify({ background: "#000", surface: "#111", text: "#eee", muted: "#aaa", accent: "#6af", danger: "#f66", border: "#333", focusRing: "#6af" })},
      '2026-01-01T00:00:00.000Z')`
      )
    )
    const themeListing = await run(
      publish(alice.client, { kind: "theme", refId: themeId, title: "Dusk", priceCredits: 2 })
    )
    const themeOrder = await run(buy(bob.client, themeListing.id))
    const bobsThemes = await run(bob.client.api.themes.listThemes())
    expect(bobsThemes.activeId).toBeNull()
    expect(bobsThemes.themes.find((theme) => theme.id === themeOrder.deliveredId)).toMatchObject({
      name: "Dusk",
      source: "owned"
    })

    const skillListing = await run(
      publish(alice.client, { kind: "skill", refId: "math.evaluate", title: "Calculator", priceCredits: 1 })
    )
    const skillOrder = await run(buy(bob.client, skillListing.id))
    expect(skillOrder.deliveredId).toBe("math.evaluate")
    const bobsAgents = await run(bob.client.api.studioAgents.listAgents())
    expect(bobsAgents.find((a) => a.ownerId === bob.being.id && a.name === "Calculator")?.skills).toContain(
      "math.evaluate"
    )

    const bare = await run(
      publish(alice.client, {
        kind: "generator",
        title: "Sea shanty",
        description: "A song for hauling ropes.",
        priceCredits: 1
      })
    )
    const bareOrder = await run(buy(bob.client, bare.id))
    const made = await run(bob.client.api.studioGenerators.getGenerator({ path: { id: bareOrder.deliveredId! } }))
    expect(made).toMatchObject({ ownerId: bob.being.id, isPublic: false, name: "Sea shanty" })
    expect(made.steps.map((step) => step.id)).toEqual(["research", "make"])
    expect(await wallet(bob.client)).toMatchObject({ balance: START - 7 })
  })

  it("starts a real studio project from a bought service's brief, and sells a service again and again", async () => {
    const alice = await member()
    const bob = await member()
    const service = await run(
      publish(alice.client, {
        kind: "service",
        title: "Menu",
        brief: "Write a one-page menu for a harbour cafe.",
        priceCredits: 4
      })
    )
    const first = await run(buy(bob.client, service.id))
    const second = await run(buy(bob.client, service.id))
    expect(first.deliveredId).not.toBe(second.deliveredId)
    const detail = await run(bob.client.api.studioProjects.getProject({ path: { id: first.deliveredId! } }))
    expect(detail.project).toMatchObject({ ownerId: bob.being.id, brief: "Write a one-page menu for a harbour cafe." })
    const [latest] = await run(market(bob.client).orders({ urlParams: { limit: 1, offset: 0, as: "buyer" } }))
    expect(latest?.deliveredId).toBe(second.deliveredId)
    expect((await wallet(bob.client)).balance).toBe(START - 8)
  })
})

describe("reviews", () => {
  it("takes one review per buyer, the owner too, never the seller; rating and count follow the rows", async () => {
    const alice = await member()
    const bob = await member()
    const carol = await member()
    const { listing } = await sellGenerator(alice.client, "Star chart", 1)
    const review = (client: Client, rating: number, body = "") =>
      market(client).postReview({ path: { id: listing.id }, payload: { rating, body } })
    expect(await refused(review(bob.client, 5))).toMatchObject({ status: 403, body: { error: "not_a_buyer" } })
    expect(await refused(review(alice.client, 5))).toMatchObject({ status: 403, body: { error: "own_listing" } })
    await run(buy(bob.client, listing.id))
    const first = await run(review(bob.client, 4, "Good."))
    const again = await run(review(bob.client, 2, "Worse on second look."))
    expect(again.id).toBe(first.id)
    expect(await run(market(carol.client).getListing({ path: { id: listing.id } }))).toMatchObject({
      rating: 2,
      ratingCount: 1
    })
    await run(review(context.owner.client, 5, "Owner's note."))
    expect(await run(market(carol.client).getListing({ path: { id: listing.id } }))).toMatchObject({
      rating: 3.5,
      ratingCount: 2
    })
    const reviews = await run(market(carol.client).listReviews({ path: { id: listing.id } }))
    expect(reviews.map((r) => [r.authorId, r.rating]).sort()).toEqual(
      [
        [bob.being.id, 2],
        [context.owner.being.id, 5]
      ].sort()
    )
    expect(
      (await carol.client.raw("POST", `/api/market/listings/${listing.id}/reviews`, { rating: 6, body: "" })).status
    ).toBe(400)
  })
})
