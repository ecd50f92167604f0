/**
 * Buys racing over real HTTP, each buyer its own client: many buyers of one listing, one buyer
 * buying one listing many times at once, and a buyer whose credit covers only some of what they
 * buy at once. Exactly the right orders, every balance right, and the ledger's sum still zero.
 * Run on SQLite (market-races.test.ts) and on PostgreSQL (postgres-market.test.ts).
 */
import { describe, expect, it } from "vitest"
import { attempt, run, type Client, type Registered, type TestNode } from "../support/node.ts"
import { ledgerState, listingUpdate, members, sellGenerator } from "./market-support.ts"

const statuses = (
  answers: ReadonlyArray<{ readonly ok: boolean; readonly status?: number; readonly body?: { readonly error: string } }>
) => answers.map((answer) => (answer.ok ? "ok" : answer.body!.error))

const ordersOf = (client: Client, as: "buyer" | "seller") =>
  run(client.api.market.orders({ urlParams: { limit: 200, offset: 0, as } }))

/** The races, on whichever node `context` starts (its beings start with `start` credits). */
export const racingBuys = (
  title: string,
  context: { readonly node: TestNode; readonly owner: Registered },
  START: number
) =>
  describe(title, () => {
    it("20 buyers of one listing at once: 20 orders, one sale each, the seller paid for each", async () => {
      const [seller, ...buyers] = await members(context.node, context.owner, 21)
      const { listing } = await sellGenerator(seller!.client, "Tide clock", 15)
      const answers = await Promise.all(
        buyers.map((buyer) => attempt(buyer.client.api.market.buyListing({ path: { id: listing.id } })))
      )
      expect(statuses(answers)).toEqual(buyers.map(() => "ok"))
      expect((await run(seller!.client.api.market.getListing({ path: { id: listing.id } }))).sales).toBe(20)
      expect(await run(seller!.client.api.market.wallet())).toMatchObject({ balance: START + 20 * 15, earned: 300 })
      for (const buyer of buyers)
        expect(await run(buyer.client.api.market.wallet())).toMatchObject({ balance: START - 15, spent: 15 })
      expect(await ordersOf(seller!.client, "seller")).toHaveLength(20)
      const state = await ledgerState(context.node)
      expect(state).toMatchObject({ total: 0, drifted: [] })
    })

    it("one buyer buying one listing 12 times at once: one order, one debit", async () => {
      const [seller, buyer] = await members(context.node, context.owner, 2)
      const { listing } = await sellGenerator(seller!.client, "Compass", 9)
      const answers = await Promise.all(
        Array.from({ length: 12 }, () => attempt(buyer!.client.api.market.buyListing({ path: { id: listing.id } })))
      )
      expect(statuses(answers).sort()).toEqual(["ok", ...Array.from({ length: 11 }, () => "already_owned")].sort())
      expect(await ordersOf(buyer!.client, "buyer")).toHaveLength(1)
      expect(await run(buyer!.client.api.market.wallet())).toMatchObject({ balance: START - 9, spent: 9 })
      expect(await run(seller!.client.api.market.wallet())).toMatchObject({ balance: START + 9 })
      expect(await ledgerState(context.node)).toMatchObject({ total: 0, drifted: [] })
    })

    it("a buyer with credit for 3 of 10 listings, bought at once: 3 orders, the balance never below zero", async () => {
      const [seller, buyer] = await members(context.node, context.owner, 2)
      const listings = []
      for (let n = 0; n < 10; n += 1) listings.push((await sellGenerator(seller!.client, `Chart ${n}`, 30)).listing)
      const answers = await Promise.all(
        listings.map((listing) => attempt(buyer!.client.api.market.buyListing({ path: { id: listing.id } })))
      )
      const outcome = statuses(answers)
      expect(outcome.filter((s) => s === "ok")).toHaveLength(3)
      expect(outcome.filter((s) => s === "insufficient_credits")).toHaveLength(7)
      expect(await ordersOf(buyer!.client, "buyer")).toHaveLength(3)
      expect(await run(buyer!.client.api.market.wallet())).toMatchObject({ balance: START - 90, spent: 90 })
      expect(await run(seller!.client.api.market.wallet())).toMatchObject({ balance: START + 90, earned: 90 })
      const copies = await run(buyer!.client.api.studioGenerators.listGenerators())
      expect(copies.filter((g) => g.name.startsWith("Chart "))).toHaveLength(3)
      expect(await ledgerState(context.node)).toMatchObject({ total: 0, drifted: [] })
    })

    /**
     * 20 buys of one listing with a change committed while they run, started once the first buy
     * has answered (the others wait behind it for the seller's wallet). The change answers the
     * sales counted before it; every buy counted after it must have seen it.
     */
    const raceChange = async (price: number, change: Record<string, unknown>) => {
      const [seller, ...buyers] = await members(context.node, context.owner, 21)
      const { generator, listing } = await sellGenerator(seller!.client, `Orrery ${price}`, price)
      let changed: Promise<{ readonly sales: number }> | undefined
      const buys = buyers.map((buyer) => attempt(buyer.client.api.market.buyListing({ path: { id: listing.id } })))
      const firstAnswered = Promise.race(buys).then(() => {
        changed = run(
          seller!.client.api.market.updateListing({
            path: { id: listing.id },
            payload: listingUpdate({
              kind: "generator",
              refId: generator.id,
              title: listing.title,
              priceCredits: price,
              ...change
            })
          })
        )
        return changed
      })
      const answers = await Promise.all(buys)
      const before = (await firstAnswered).sales
      const orders = await ordersOf(seller!.client, "seller")
      const after = await run(seller!.client.api.market.getListing({ path: { id: listing.id } }))
      return { seller: seller!, buyers, answers, before, orders, after }
    }

    it("a price change racing 20 buys: each buy paid the price its sale was counted at", async () => {
      const { seller, answers, before, orders, after } = await raceChange(10, { priceCredits: 25 })
      expect(statuses(answers)).toEqual(answers.map(() => "ok"))
      expect(after).toMatchObject({ sales: 20, priceCredits: 25 })
      // The change answered `before` sales: exactly those were paid at the old price.
      expect(orders.filter((order) => order.priceCredits === 10)).toHaveLength(before)
      expect(orders.filter((order) => order.priceCredits === 25)).toHaveLength(20 - before)
      expect(await run(seller.client.api.market.wallet())).toMatchObject({
        balance: START + before * 10 + (20 - before) * 25
      })
      expect(await ledgerState(context.node)).toMatchObject({ total: 0, drifted: [] })
    })

    it("a pause racing 20 buys: no buy goes through after the pause", async () => {
      const { seller, buyers, answers, before, orders, after } = await raceChange(5, { status: "paused" })
      const outcome = statuses(answers)
      expect(outcome.filter((s) => s === "ok")).toHaveLength(before)
      expect(outcome.filter((s) => s === "listing_inactive")).toHaveLength(20 - before)
      expect(after).toMatchObject({ sales: before, status: "paused" })
      expect(orders).toHaveLength(before)
      expect(await run(seller.client.api.market.wallet())).toMatchObject({
        balance: START + before * 5,
        earned: before * 5
      })
      const spent = await Promise.all(buyers.map(async (buyer) => (await run(buyer.client.api.market.wallet())).spent))
      expect(spent.reduce((sum, n) => sum + n, 0)).toBe(before * 5)
      expect(await ledgerState(context.node)).toMatchObject({ total: 0, drifted: [] })
    })

    it("two beings buying each other's listings at once: every buy goes through, nothing deadlocks", async () => {
      const [ada, bo] = await members(context.node, context.owner, 2)
      const shelf = async (seller: Registered, name: string) => {
        const listings = []
        for (let n = 0; n < 4; n += 1) listings.push((await sellGenerator(seller.client, `${name} ${n}`, 5)).listing)
        return listings
      }
      const [adas, bos] = [await shelf(ada!, "Lamp"), await shelf(bo!, "Kite")]
      const buys = [
        ...adas.map((listing) => ({ buyer: bo!, listing })),
        ...bos.map((listing) => ({ buyer: ada!, listing }))
      ]
      const answers = await Promise.all(
        buys.map(({ buyer, listing }) => attempt(buyer.client.api.market.buyListing({ path: { id: listing.id } })))
      )
      expect(statuses(answers)).toEqual(buys.map(() => "ok"))
      for (const being of [ada!, bo!])
        expect(await run(being.client.api.market.wallet())).toMatchObject({ balance: START, spent: 20, earned: 20 })
      expect(await ledgerState(context.node)).toMatchObject({ total: 0, drifted: [] })
    })
  })
