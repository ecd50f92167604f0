/**
 * The market's sixth kind over real HTTP: a module bundle the seller authored with
 * studio.author_module, listed by its folder's file id, checked at publish and at every edit;
 * buying it writes the bundle into the node's plugin folder, where the owner sees it available and
 * installs it with grants; a delivery that cannot be written moves no money.
 */
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { refused, registerOwner, run, startNode, type Client, type Registered, type TestNode } from "../support/node.ts"
import { ledgerState, listingInput, listingUpdate, members } from "./market-support.ts"

const START = 100

const manifest = (namespace: string, fields: Record<string, unknown> = {}) =>
  JSON.stringify({
    apiVersion: "1.0",
    id: `@seller/${namespace}`,
    version: "0.1.0",
    namespace,
    name: `Module ${namespace}`,
    extensions: [{ kind: "module", id: "today", title: "Today", uses: [], document: "index.html" }],
    ...fields
  })
const page = "<!doctype html><title>Tides</title><h1>High water at 14:02.</h1>"

/** Authors a bundle in the caller's uploads as the studio skill does; answers its folder's file id. */
const author = async (client: Client, namespace: string, text = manifest(namespace)) => {
  const answer = await run(
    client.api.studioSkills.invokeSkill({
      payload: { name: "studio.author_module", input: { manifest: text, files: { "index.html": page } } }
    })
  )
  expect(answer.output).toMatchObject({ authored: true })
  return folderId(client, namespace)
}

const folderId = async (client: Client, name: string) => {
  const entries = await run(client.api.files.list({ urlParams: { scope: "upload", path: "modules" } }))
  return entries.find((entry) => entry.name === name)!.id
}

const publish = (client: Client, body: Record<string, unknown>) =>
  client.api.market.publishListing({ payload: listingInput(body) })
const buy = (client: Client, id: string) => client.api.market.buyListing({ path: { id } })
const wallet = (client: Client) => run(client.api.market.wallet())

describe("a module listing", () => {
  let node: TestNode
  let owner: Registered
  let pool: Array<Registered>
  beforeAll(async () => {
    node = await startNode((dataDir) => ({ pluginDir: join(dataDir, "plugins"), startingCredits: START }))
    owner = await registerOwner(node)
    pool = await members(node, owner, 12)
  })
  afterAll(() => node.close())

  it("is refused without a bundle, for another's folder, for what is not a module and for a bad manifest, listing nothing", async () => {
    const [alice, bob] = [pool.pop()!, pool.pop()!]
    const bobs = await author(bob.client, "bobs")
    const listingOf = (refId: string | null) =>
      publish(alice.client, { kind: "module", refId, title: "Tides", priceCredits: 5 })
    expect(await refused(listingOf(null))).toMatchObject({ status: 400, body: { error: "module_needs_ref" } })
    // Bob's id resolves in Alice's own files, where there is nothing.
    expect(await refused(listingOf(bobs))).toMatchObject({ status: 404, body: { error: "ref_not_found" } })
    // A folder written by hand (an upload) is checked as the studio skill checks what it writes.
    const upload = async (folder: string, files: Record<string, string>) => {
      const form = new FormData()
      form.append("path", `modules/${folder}`)
      for (const [name, text] of Object.entries(files)) form.append("file", new Blob([text]), name)
      const response = await fetch(`${alice.client.base}/api/files/upload`, {
        method: "POST",
        body: form,
        headers: { ...alice.client.headers, cookie: alice.client.cookieHeader() }
      })
      expect(response.status).toBe(200)
      return folderId(alice.client, folder)
    }
    const notModule = await upload("plain", {
      "plugin.json": manifest("plain", { extensions: [{ kind: "skill", id: "ping", uses: [] }] }),
      "index.js": ""
    })
    expect(await refused(listingOf(notModule))).toMatchObject({ status: 400, body: { error: "not_a_module" } })
    const bad = await upload("bad", { "plugin.json": manifest("bad", { id: "Bad Id" }), "index.html": page })
    expect(await refused(listingOf(bad))).toMatchObject({ status: 400, body: { error: "invalid_manifest" } })
    const aFile = (
      await run(alice.client.api.files.list({ urlParams: { scope: "upload", path: "modules/bad" } }))
    ).find((entry) => entry.name === "index.html")!.id
    expect(await refused(listingOf(aFile))).toMatchObject({ status: 400, body: { error: "not_a_bundle" } })
    expect(
      await run(alice.client.api.market.searchListings({ urlParams: { mine: true, limit: 50, offset: 0 } }))
    ).toEqual([])

    // Checked again at every edit: a listing cannot be pointed at a bundle that does not hold.
    const good = await author(alice.client, "good")
    const listing = await run(listingOf(good))
    expect(listing).toMatchObject({ kind: "module", refId: good, status: "active" })
    const edit = alice.client.api.market.updateListing({
      path: { id: listing.id },
      payload: listingUpdate({ kind: "module", refId: notModule, title: "Tides" })
    })
    expect(await refused(edit)).toMatchObject({ status: 400, body: { error: "not_a_module" } })
    expect(await run(alice.client.api.market.getListing({ path: { id: listing.id } }))).toMatchObject({ refId: good })
    // The bundle's plugin.json names its folder too, as the listing form picks it from a file search.
    const [manifestEntry] = (await run(alice.client.api.files.search({ urlParams: { q: "plugin.json" } }))).filter(
      (entry) => entry.path === "modules/good/plugin.json"
    )
    expect(await run(listingOf(manifestEntry!.id))).toMatchObject({ kind: "module", refId: manifestEntry!.id })
  })

  it("writes the bundle into the plugin folder as available; the owner installs it and its place serves; a second buy is refused", async () => {
    const [seller, buyer, latecomer] = [pool.pop()!, pool.pop()!, pool.pop()!]
    const refId = await author(seller.client, "tides")
    const listing = await run(publish(seller.client, { kind: "module", refId, title: "Tides", priceCredits: 30 }))
    const order = await run(buy(buyer.client, listing.id))
    expect(order).toMatchObject({ kind: "module", deliveredId: "tides", priceCredits: 30 })
    expect(await wallet(buyer.client)).toMatchObject({ balance: START - 30, spent: 30 })
    expect(await wallet(seller.client)).toMatchObject({ balance: START + 30, earned: 30 })

    const available = await run(owner.client.api.plugins.availablePlugins())
    expect(available.plugins).toContainEqual(
      expect.objectContaining({
        dir: "tides",
        installed: false,
        error: null,
        manifest: expect.objectContaining({ id: "@seller/tides" })
      })
    )
    // Staging folders never show.
    expect(available.plugins.every((plugin) => !plugin.dir.startsWith("."))).toBe(true)
    // Not installed by the buy: nothing of it is listed yet.
    expect((await run(owner.client.api.plugins.listPlugins())).some((plugin) => plugin.id === "@seller/tides")).toBe(
      false
    )

    await run(owner.client.api.plugins.installPlugin({ payload: { dir: "tides", granted: [] } }))
    const document = await buyer.client.raw("GET", `/api/modules/${encodeURIComponent("@seller/tides")}/today/document`)
    expect(document.status).toBe(200)
    expect(document.text).toContain("High water at 14:02.")

    expect(await refused(buy(buyer.client, listing.id))).toMatchObject({
      status: 409,
      body: { error: "already_owned" }
    })
    // Another buyer: the node already holds the module, so nothing is sold twice into one folder.
    expect(await refused(buy(latecomer.client, listing.id))).toMatchObject({
      status: 409,
      body: { error: "module_already_available", details: { dir: "tides" } }
    })
    expect(await wallet(buyer.client)).toMatchObject({ balance: START - 30 })
    expect(await wallet(latecomer.client)).toMatchObject({ balance: START, spent: 0 })
    expect(await run(seller.client.api.market.getListing({ path: { id: listing.id } }))).toMatchObject({ sales: 1 })
  })

  it("sells to one of many concurrent buyers, and the totals hold", async () => {
    const seller = pool.pop()!
    const buyers = pool.splice(0, 6)
    const refId = await author(seller.client, "tally")
    const listing = await run(publish(seller.client, { kind: "module", refId, title: "Tally", priceCredits: 40 }))
    await Promise.all([seller, ...buyers].map((being) => wallet(being.client)))
    const before = await ledgerState(node)
    const outcomes = await Promise.all(
      buyers.map((buyer) =>
        run(buy(buyer.client, listing.id)).then(
          () => "bought",
          (error: unknown) => String(error)
        )
      )
    )
    expect(outcomes.filter((outcome) => outcome === "bought")).toHaveLength(1)
    const balances = await Promise.all(buyers.map((buyer) => wallet(buyer.client)))
    expect(balances.map((found) => found.balance).sort()).toEqual(
      [START - 40, START, START, START, START, START].sort()
    )
    expect(await wallet(seller.client)).toMatchObject({ balance: START + 40, earned: 40 })
    const after = await ledgerState(node)
    expect(after).toMatchObject({ total: 0, drifted: [], mintBalance: before.mintBalance })
    expect(
      (await run(owner.client.api.plugins.availablePlugins())).plugins.filter((plugin) => plugin.dir === "tally")
    ).toHaveLength(1)
  })
})

describe("a module delivery that cannot be written", () => {
  let node: TestNode
  beforeAll(async () => {
    node = await startNode((dataDir) => ({ pluginDir: join(dataDir, "plugins", "here"), startingCredits: START }))
    // The plugin folder's parent is a file: nothing can be written under it.
    writeFileSync(join(node.dataDir, "plugins"), "not a folder")
  })
  afterAll(() => node.close())

  it("fails the buy with 503 and moves no money, counts no sale, writes no order", async () => {
    const owner = await registerOwner(node)
    const [seller, buyer] = await members(node, owner, 2)
    const refId = await author(seller!.client, "tides")
    const listing = await run(publish(seller!.client, { kind: "module", refId, title: "Tides", priceCredits: 30 }))
    await Promise.all([seller!, buyer!].map((being) => wallet(being.client)))
    const before = await ledgerState(node)
    expect(await refused(buy(buyer!.client, listing.id))).toMatchObject({
      status: 503,
      body: { error: "module_delivery_failed" }
    })
    expect(await wallet(buyer!.client)).toMatchObject({ balance: START, spent: 0 })
    expect(await wallet(seller!.client)).toMatchObject({ balance: START, earned: 0 })
    expect(await run(seller!.client.api.market.getListing({ path: { id: listing.id } }))).toMatchObject({
      sales: 0,
      status: "active"
    })
    expect(await run(buyer!.client.api.market.orders({ urlParams: { limit: 50, offset: 0, as: "buyer" } }))).toEqual([])
    expect(await ledgerState(node)).toMatchObject({ total: 0, drifted: [], mintBalance: before.mintBalance })
  })
})
