/**
 * Buys per second (issue 12): 20 buyers at once, each its own HTTP client (session cookie, its
 * own address), each buying 25 listings one after another on a real node. The listings are
 * generators without a refId, so each buy delivers the spec's synthesised two-step generator:
 * one generator row for the buyer, the lightest delivery that writes a good (a module's now
 * copies a folder and is one per node). The figure is the buy itself: the route, the session,
 * the transaction and what follows its commit (both wallets read and published, both
 * celebrations raised). Anchor in the same run: better-sqlite3 directly on a fresh file with the
 * node's own market and generator tables, one transaction per buy making the same statements
 * (read the listing and the earlier purchase, open the accounts, debit, credit, two entries, the
 * sale, the generator copy, the order and the purchase).
 */
import * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
import * as Option from "effect/Option"
import Database from "better-sqlite3"
import { randomBytes } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { BootInfo, bootInfoLayer } from "../../host/boot.ts"
import { nodeLayer } from "../../host/node.ts"
import { Client, run } from "../support/client.ts"
import { person } from "../support/person.ts"
import { meets, recordVerdict } from "./verdicts.ts"
import { startWindowProfile, stopWindowProfile } from "./window-profile.ts"

const buyers = 20
const buysEach = 25
const price = 1
/** The node's buys per second as a share of the bare transaction's (issue 27). */
const aimOfBare = 0.25

const newId = () => randomBytes(12).toString("base64url")

const publishModules = (seller: Client, count: number) =>
  Promise.all(
    Array.from({ length: count }, (_, n) =>
      run(
        seller.api.market.publishListing({
          payload: {
            kind: "generator",
            refId: null,
            title: `Generator ${n}`,
            description: "A bench generator.",
            cover: null,
            priceCredits: price,
            tags: [],
            brief: null
          }
        })
      )
    )
  )

/** The buys over HTTP; answers buys per second. */
const nodeBuys = async (dataDir: string) => {
  const runtime = ManagedRuntime.make(
    bootInfoLayer.pipe(
      Layer.provideMerge(
        nodeLayer({
          settings: {
            dataDir,
            port: 0,
            host: "127.0.0.1",
            trustProxy: 1,
            rateLimitPerMinute: 100_000_000,
            startingCredits: 1_000_000
          }
        })
      )
    )
  )
  try {
    const info = await runtime.runPromise(BootInfo)
    const owner = new Client(info.url)
    await run(owner.api.authPublic.register({ payload: person(Option.getOrThrow(info.ownerCode)) }))
    const codes = await run(owner.api.auth.mintCodes({ payload: { count: buyers, note: "bench" } }))
    const clients = await Promise.all(
      codes.map(async ({ code }) => {
        const client = new Client(info.url)
        await run(client.api.authPublic.register({ payload: person(code) }))
        return client
      })
    )
    const listings = await publishModules(owner, buysEach)
    // Warm-up: each buyer's wallet opened, one buy made, off the clock.
    const warm = await publishModules(owner, 1)
    await Promise.all(clients.map((client) => run(client.api.market.buyListing({ path: { id: warm[0]!.id } }))))
    await startWindowProfile()
    const started = performance.now()
    await Promise.all(
      clients.map(async (client) => {
        for (const listing of listings) await run(client.api.market.buyListing({ path: { id: listing.id } }))
      })
    )
    const seconds = (performance.now() - started) / 1000
    await stopWindowProfile()
    return (buyers * buysEach) / seconds
  } finally {
    await runtime.dispose()
  }
}

/** The same writes by better-sqlite3 alone, on a fresh file with the node's market tables; answers buys per second. */
const bareBuys = (nodeDb: string, dir: string) => {
  const source = new Database(nodeDb, { readonly: true })
  const schema = source
    .prepare(`SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND (name LIKE 'market_%' OR name = 'generators')`)
    .all() as Array<{ sql: string }>
  source.close()
  const db = new Database(join(dir, "bare.db"))
  db.pragma("journal_mode = WAL")
  db.pragma("synchronous = NORMAL")
  db.pragma("foreign_keys = ON")
  // Sellers are not beings here: the one reference to the beings table goes.
  for (const { sql } of schema) db.exec(sql.replace(/REFERENCES beings \(id\) ON DELETE CASCADE/, ""))
  const now = () => new Date().toISOString()
  const seller = newId()
  const insertListing =
    db.prepare(`INSERT INTO market_listings (id, seller_id, kind, ref_id, title, description, cover, price_credits,
    rating, rating_count, sales, tags, status, brief, created_at, updated_at) VALUES (?, ?, 'generator', NULL, ?, 'A bench generator.', NULL, ?, 0, 0, 0, '[]', 'active', NULL, ?, ?)`)
  const listings = Array.from({ length: buysEach }, (_, n) => {
    const id = newId()
    insertListing.run(id, seller, `Generator ${n}`, price, now(), now())
    return id
  })
  const findListing = db.prepare(`SELECT * FROM market_listings WHERE id = ?`)
  const holds = db.prepare(`SELECT kind FROM market_purchases WHERE buyer_id = ? AND listing_id = ? LIMIT 1`)
  const open =
    db.prepare(`INSERT INTO market_wallets (account, balance, earned, spent, updated_at) VALUES (?, 0, 0, 0, ?)
    ON CONFLICT (account) DO NOTHING RETURNING account`)
  const debit = db.prepare(`UPDATE market_wallets SET balance = balance - ?, spent = spent + ?, updated_at = ?
    WHERE account = ? AND (account = 'mint' OR balance >= ?) RETURNING account`)
  const credit = db.prepare(
    `UPDATE market_wallets SET balance = balance + ?, earned = earned + ?, updated_at = ? WHERE account = ? RETURNING account`
  )
  const entry =
    db.prepare(`INSERT INTO market_ledger (id, movement_id, account, counterparty, amount, reason, order_id, created_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?)`)
  const countSale = db.prepare(
    `UPDATE market_listings SET sales = sales + 1, updated_at = ? WHERE id = ? AND status = 'active' RETURNING id`
  )
  const order =
    db.prepare(`INSERT INTO market_orders (id, listing_id, buyer_id, seller_id, kind, title, price_credits, status, delivered_id, created_at)
    VALUES (?, ?, ?, ?, 'generator', ?, ?, 'delivered', ?, ?)`)
  const purchase =
    db.prepare(`INSERT INTO market_purchases (id, order_id, buyer_id, listing_id, kind, delivered_id, created_at)
    VALUES (?, ?, ?, ?, 'generator', ?, ?)`)
  const copyGenerator =
    db.prepare(`INSERT INTO generators (id, owner_id, name, slug, description, icon, inputs_schema, steps, output_kinds,
    price_credits, is_public, created_at) VALUES (?, ?, ?, ?, 'A bench generator.', '✨', '{"type":"object","properties":{}}', ?, '["markdown"]', 0, 0, ?)`)
  const steps = JSON.stringify([
    { id: "research", title: "Research", role: "researcher", skills: [], instruction: "Research." },
    { id: "make", title: "Make", role: "writer", skills: [], dependsOn: ["research"], instruction: "Make." }
  ])
  const move = (
    from: string,
    to: string,
    amount: number,
    orderId: string | null,
    reasons: readonly [string, string]
  ) => {
    const at = now()
    if (debit.all(amount, amount, at, from, amount).length === 0) throw new Error("insufficient credits")
    credit.all(amount, amount, at, to)
    const movement = newId()
    entry.run(newId(), movement, from, to, -amount, reasons[0], orderId, at)
    entry.run(newId(), movement, to, from, amount, reasons[1], orderId, at)
  }
  const openAccount = (account: string) => {
    open.all("mint", now())
    if (open.all(account, now()).length > 0)
      move("mint", account, 1_000_000, null, ["starting_credit", "starting_credit"])
  }
  const buy = db.transaction((buyer: string, listingId: string) => {
    const listing = findListing.get(listingId) as { status: string; seller_id: string; title: string }
    if (listing.status !== "active" || listing.seller_id === buyer || holds.all(buyer, listingId).length > 0)
      throw new Error("refused")
    openAccount(buyer)
    openAccount(listing.seller_id)
    const orderId = newId()
    move(buyer, listing.seller_id, price, orderId, ["purchase", "sale"])
    const at = now()
    countSale.all(at, listingId)
    const generatorId = newId()
    copyGenerator.run(
      generatorId,
      buyer,
      listing.title,
      `${listing.title.toLowerCase().replace(/\W+/g, "-")}-${generatorId}`,
      steps,
      at
    )
    order.run(orderId, listingId, buyer, listing.seller_id, listing.title, price, generatorId, at)
    purchase.run(newId(), orderId, buyer, listingId, generatorId, at)
  })
  const buyerIds = Array.from({ length: buyers }, newId)
  for (const buyer of buyerIds) openAccount(buyer)
  const started = performance.now()
  // One writer, as the node's single connection is: the buyers take turns, listing by listing.
  for (const listingId of listings) for (const buyer of buyerIds) buy(buyer, listingId)
  const seconds = (performance.now() - started) / 1000
  db.close()
  return (buyers * buysEach) / seconds
}

export const benchMarket = async () => {
  const dataDir = mkdtempSync(join(tmpdir(), "bench-market-"))
  try {
    const node = await nodeBuys(dataDir)
    const bare = bareBuys(join(dataDir, "node.db"), dataDir)
    const rows = [
      ["figure", "buys/s", "against"],
      [`node: POST /buy, ${buyers} buyers at once`, node.toFixed(0), `node/bare ${(node / bare).toFixed(3)}`],
      ["bare: better-sqlite3, same writes", bare.toFixed(0), ""]
    ]
    for (const row of rows) console.log(row.map((cell, index) => cell.padEnd(index === 0 ? 44 : 14)).join(""))
    recordVerdict({
      figure: `buys per second, ${buyers} buyers at once`,
      measured: `${node.toFixed(0)} buys/s, ${(node / bare).toFixed(3)}× bare`,
      anchor: `bare SQLite transaction, same writes ${bare.toFixed(0)} buys/s`,
      aim: `≥ ${aimOfBare}× bare`,
      met: meets(node / bare, (r) => r >= aimOfBare)
    })
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}

if (import.meta.main) await benchMarket()
