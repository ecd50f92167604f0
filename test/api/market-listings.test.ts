/**
 * The market over real HTTP, before any sale: the ledger (starting credit once, double entries
 * summing to zero), the publishing rules, and search as the spec writes it.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import { describe, expect, it } from "vitest"
import { refused, run, type Client } from "../support/node.ts"
import { expectOffsetPages } from "../support/offset-pages.ts"
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

const { context, member } = marketNode(12)

describe("the ledger", () => {
  it("credits a being STARTING_CREDITS once, from the mint, the first time its wallet is touched", async () => {
    const { client, being } = await member()
    const touches = await Promise.all(Array.from({ length: 8 }, () => wallet(client)))
    for (const touched of touches)
      expect(touched).toMatchObject({ beingId: being.id, balance: START, earned: 0, spent: 0 })
    const entries = await run(market(client).ledger({ urlParams: { limit: 50, offset: 0 } }))
    expect(entries).toEqual([
      expect.objectContaining({ amount: START, counterparty: "mint", reason: "starting_credit", orderId: null })
    ])
    const state = await ledgerState(context.node)
    expect(state.total).toBe(0)
    expect(state.drifted).toEqual([])
    expect(state.mintBalance).toBeLessThanOrEqual(-START)
  })

  it("will not let the database hold a negative balance, whatever writes it", async () => {
    const { client, being } = await member()
    await wallet(client)
    const refusal = await context.node.runtime.runPromise(
      Effect.flatMap(
        SqlClient.SqlClient,
        (sql) => sql`UPDATE market_wallets SET balance = -1 WHERE account = ${being.id}`
      ).pipe(
        Effect.flip,
        Effect.map((error) => String(error.cause))
      )
    )
    expect(refusal).toMatch(/CHECK constraint/)
    expect((await wallet(client)).balance).toBe(START)
  })
})

describe("publishing", () => {
  it("lists a generator the seller owns and refuses one they do not", async () => {
    const alice = await member()
    const bob = await member()
    const own = await createGenerator(alice.client, "Harbour guide")
    const listing = await run(
      publish(alice.client, {
        kind: "generator",
        refId: own.id,
        title: "Harbour guide",
        priceCredits: 30,
        tags: ["sea", "100%"],
        cover: "/covers/harbour.png"
      })
    )
    expect(listing).toMatchObject({
      cover: "/covers/harbour.png",
      tags: ["sea", "100%"],
      sellerId: alice.being.id,
      kind: "generator",
      refId: own.id,
      status: "active",
      sales: 0,
      rating: 0,
      ratingCount: 0,
      brief: null
    })
    expect(await run(market(bob.client).getListing({ path: { id: listing.id } }))).toEqual(listing)

    const bobsPrivate = await createGenerator(bob.client, "Bob's secret")
    const bobsPublic = await createGenerator(bob.client, "Bob's public", { isPublic: true })
    const hidden = await refused(publish(alice.client, { kind: "generator", refId: bobsPrivate.id, title: "Not mine" }))
    expect(hidden).toMatchObject({ status: 404, body: { error: "ref_not_found" } })
    const missing = await refused(
      publish(alice.client, { kind: "generator", refId: "no-such-generator", title: "Nothing" })
    )
    expect(missing.body).toEqual(
      hidden.body.details === undefined
        ? missing.body
        : { ...hidden.body, details: { kind: "generator", refId: "no-such-generator" } }
    )
    expect(
      await refused(publish(alice.client, { kind: "generator", refId: bobsPublic.id, title: "Not mine" }))
    ).toMatchObject({
      status: 403,
      body: { error: "ref_not_owned" }
    })
    expect(
      await refused(publish(alice.client, { kind: "skill", refId: "no.such_skill", title: "Nothing" }))
    ).toMatchObject({
      status: 400,
      body: { error: "unknown_skill" }
    })
    // The refId rule holds at every edit too.
    expect(
      await refused(
        market(alice.client).updateListing({
          path: { id: listing.id },
          payload: listingUpdate({ kind: "generator", refId: bobsPublic.id, title: "Harbour guide" })
        })
      )
    ).toMatchObject({ status: 403, body: { error: "ref_not_owned" } })
  })

  it("needs a brief or a description for a service, and takes no seller from a body", async () => {
    const { client } = await member()
    expect(await refused(publish(client, { kind: "service", title: "Logo design", description: "  " }))).toMatchObject({
      status: 400,
      body: { error: "service_needs_brief" }
    })
    const withBrief = await run(
      publish(client, { kind: "service", title: "Logo design", brief: "Draw a logo for a bakery." })
    )
    expect(withBrief.brief).toBe("Draw a logo for a bakery.")
    const sneaky = await client.raw("POST", "/api/market/listings", {
      kind: "service",
      title: "x",
      description: "y",
      sellerId: "someone"
    })
    expect(sneaky.status).toBe(400)
  })

  it("lets the seller and the owner edit or delete, and nobody else", async () => {
    const alice = await member()
    const bob = await member()
    const { generator, listing } = await sellGenerator(alice.client, "Tide tables", 10)
    const edit = (client: Client, fields: Record<string, unknown>) =>
      market(client).updateListing({
        path: { id: listing.id },
        payload: listingUpdate({ kind: "generator", refId: generator.id, title: "Tide tables", ...fields })
      })
    expect(await refused(edit(bob.client, { priceCredits: 0 }))).toMatchObject({
      status: 403,
      body: { error: "not_seller" }
    })
    expect(await run(edit(alice.client, { priceCredits: 12, status: "paused" }))).toMatchObject({
      priceCredits: 12,
      status: "paused"
    })
    expect(await run(edit(context.owner.client, { status: "active", title: "Tide tables (reviewed)" }))).toMatchObject({
      status: "active",
      title: "Tide tables (reviewed)"
    })
    expect(await refused(market(bob.client).deleteListing({ path: { id: listing.id } }))).toMatchObject({ status: 403 })
    await run(market(alice.client).deleteListing({ path: { id: listing.id } }))
    expect(await refused(market(alice.client).getListing({ path: { id: listing.id } }))).toMatchObject({
      status: 404,
      body: { error: "listing_not_found" }
    })
  })
})

describe("search", () => {
  it("matches every term against title, description and tags, active only, by sales then rating then newest", async () => {
    const seller = await member()
    const tag = `q${Date.now().toString(36)}`
    const mk = (title: string, fields: Record<string, unknown> = {}) =>
      run(publish(seller.client, { kind: "service", title, description: `${tag} service`, ...fields }))
    const older = await mk("Plain weaving")
    const newer = await mk("Plain knitting")
    const tagged = await mk("Rug", { tags: ["weaving-loom"] })
    const percent = await mk("Half 50% off")
    const paused = await mk("Paused weaving")
    await run(
      market(seller.client).updateListing({
        path: { id: paused.id },
        payload: listingUpdate({
          kind: "service",
          title: paused.title,
          description: paused.description,
          status: "paused"
        })
      })
    )
    const search = (q: string, mine = false) =>
      run(market(seller.client).searchListings({ urlParams: { q, mine, limit: 50, offset: 0 } }))

    expect((await search(`${tag} weaving`)).map((l) => l.id)).toEqual([tagged.id, older.id])
    expect((await search(`${tag} plain`)).map((l) => l.id)).toEqual([newer.id, older.id])
    // `%` is a character here, not a wildcard.
    expect((await search(`${tag} 50%`)).map((l) => l.id)).toEqual([percent.id])
    expect((await search(`${tag} %`)).map((l) => l.id)).toEqual([percent.id])
    expect((await search(`${tag} _`)).map((l) => l.id)).toEqual([])
    expect((await search(`${tag} weaving`, true)).map((l) => l.id).sort()).toEqual(
      [older.id, tagged.id, paused.id].sort()
    )
    expect(
      await refused(
        market(seller.client).searchListings({ urlParams: { q: "a b c d e f g", mine: false, limit: 50, offset: 0 } })
      )
    ).toMatchObject({
      status: 400,
      body: { error: "too_many_search_terms" }
    })

    // A sale ranks a listing first.
    const buyer = await member()
    await run(buy(buyer.client, older.id))
    expect((await search(`${tag} weaving`)).map((l) => l.id)).toEqual([older.id, tagged.id])
  })

  it("pages by `offset` in the search's order: two pages are the list read at once; a bad offset is 400", async () => {
    const seller = await member()
    const tag = `p${Date.now().toString(36)}`
    const published = []
    for (const title of ["One", "Two", "Three", "Four", "Five"]) {
      published.push(await run(publish(seller.client, { kind: "service", title, description: `${tag} lessons` })))
    }
    // No sales and no rating: newest first, the id (it grows as listings are made) between two of one moment.
    const newest = published.map((listing) => listing.id).reverse()
    const found = await expectOffsetPages(seller.client, `/api/market/listings?q=${tag}`, 2, 5)
    expect(found).toEqual(newest.slice(0, 4))
    expect(await expectOffsetPages(seller.client, "/api/market/listings?mine=true", 2, 5)).toEqual(found)
  })
})
