/**
 * The `credits` capability in a third-party plugin's isolate: the plugin's own ledger account,
 * paid from the calling being's wallet within the grant's daily limit, every spend a ledger movement.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { registerMember, registerOwner, run, startNode, type Registered, type TestNode } from "../support/node.ts"
import { adapterStepsPlugin, runSteps, ungrantedStepsPlugin } from "../support/adapter-steps.ts"

const START = 20
const LIMIT = 30
const ACCOUNT = "plugin:@test/tipjar"

let node: TestNode
let owner: Registered
let member: Registered
let pluginDir: string

beforeAll(async () => {
  node = await startNode((dataDir) => ({
    pluginDir: join(dataDir, "plugins"),
    startingCredits: START,
    pluginCreditsDailyLimit: LIMIT
  }))
  pluginDir = join(node.dataDir, "plugins")
  owner = await registerOwner(node)
  member = await registerMember(node, owner.client)
  adapterStepsPlugin(pluginDir, "tipjar", "credits")
  await run(owner.client.api.plugins.installPlugin({ payload: { dir: "tipjar", granted: ["credits"] } }))
})
afterAll(() => node.close())

const call = runSteps

const wallet = (who: Registered) => run(who.client.api.market.wallet())

const ledgerTotals = () =>
  node.runtime.runPromise(
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const [sum] = yield* sql<{ total: number }>`SELECT COALESCE(SUM(amount), 0) AS total FROM market_ledger`
      const [plugin] = yield* sql<{ balance: number; entries: number }>`SELECT
        (SELECT balance FROM market_wallets WHERE account = ${ACCOUNT}) AS balance,
        (SELECT COALESCE(SUM(amount), 0) FROM market_ledger WHERE account = ${ACCOUNT}) AS entries`
      return { total: Number(sum?.total), balance: Number(plugin?.balance), entries: Number(plugin?.entries) }
    })
  )

describe("a plugin granted credits", () => {
  it("spends the calling being's credits into its own account, each spend a ledger movement", async () => {
    const [spent, read] = await call(owner, "tipjar.use", [["spend", 10], ["balance"]])
    const standing = { account: ACCOUNT, balance: 10, limit: LIMIT, spentToday: 10, remainingToday: 20 }
    expect(spent).toEqual({ value: standing })
    expect(read).toEqual({ value: standing })
    expect(await wallet(owner)).toMatchObject({ balance: START - 10, spent: 10 })
    const [entry] = await run(owner.client.api.market.ledger({ urlParams: { limit: 1, offset: 0 } }))
    expect(entry).toMatchObject({ amount: -10, counterparty: ACCOUNT, reason: "plugin", orderId: null })
    // Double entry: the plugin's side is there too, and the ledger sums to zero.
    expect(await ledgerTotals()).toEqual({ total: 0, balance: 10, entries: 10 })
  })

  it("refuses a spend past the grant's limit or the wallet, and an amount that is not whole, moving nothing", async () => {
    const results = await call(owner, "tipjar.use", [
      ["spend", 25],
      ["spend", 15],
      ["spend", 0],
      ["spend", 1.5],
      ["spend", "3"],
      ["balance"]
    ])
    expect(results[0]?.error).toBe(
      `This plugin may spend at most ${LIMIT} credits of your wallet in 24 hours; it has spent 10, so 20 remain, not 25.`
    )
    expect(results[1]?.error).toContain(`This costs 15 credits and your wallet holds ${START - 10}`)
    for (const refused of results.slice(2, 5)) expect(refused.error).toContain("a whole number of credits above 0")
    expect(results[5]).toEqual({
      value: { account: ACCOUNT, balance: 10, limit: LIMIT, spentToday: 10, remainingToday: 20 }
    })
    expect(await wallet(owner)).toMatchObject({ balance: START - 10, spent: 10 })
    expect(await ledgerTotals()).toEqual({ total: 0, balance: 10, entries: 10 })
  })

  it("counts the limit for each being apart, into the same account", async () => {
    const [spent] = await call(member, "tipjar.use", [["spend", 20]])
    expect(spent).toEqual({
      value: { account: ACCOUNT, balance: 30, limit: LIMIT, spentToday: 20, remainingToday: 10 }
    })
    expect(await wallet(member)).toMatchObject({ balance: 0, spent: 20 })
    expect(await wallet(owner)).toMatchObject({ balance: START - 10 })
    expect(await ledgerTotals()).toEqual({ total: 0, balance: 30, entries: 30 })
  })
})

describe("a plugin without the credits capability", () => {
  it("finds no credits adapter in a skill that does not use it", async () => {
    expect(await call(owner, "tipjar.bare", [])).toEqual({ absent: true })
  })

  it("finds none when it was never granted, and spends nothing", async () => {
    ungrantedStepsPlugin(pluginDir, "freeloader", "credits")
    await run(owner.client.api.plugins.installPlugin({ payload: { dir: "freeloader", granted: [] } }))
    expect(await call(owner, "freeloader.use", [["spend", 1]])).toEqual({ absent: true })
    expect(await wallet(owner)).toMatchObject({ balance: START - 10 })
  })
})
