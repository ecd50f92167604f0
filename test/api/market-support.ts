/**
 * What the market's API tests share: a node whose beings start with a known credit, members to
 * trade, a generator to sell, and the ledger read straight from the node's database (the sum over
 * every account, each wallet against its entries), which no route shows whole.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { GeneratorInput } from "../../extensions/generators/contract/generator.ts"
import { ListingInput, ListingUpdate } from "../../extensions/market/contract/records.ts"
import { beforeAll } from "vitest"
import { Client, nodeWithOwner, person, run, type Registered, type TestNode } from "../support/node.ts"

export const listingInput = (body: Record<string, unknown>) => Schema.decodeUnknownSync(ListingInput)(body)
export const listingUpdate = (body: Record<string, unknown>) => Schema.decodeUnknownSync(ListingUpdate)(body)

/** A valid two-step generator, private unless told. */
export const generatorDraft = (name: string, fields: Record<string, unknown> = {}) =>
  Schema.decodeUnknownSync(GeneratorInput)({
    name,
    description: `${name}, made to order.`,
    inputsSchema: { type: "object", properties: { topic: { type: "string" } } },
    steps: [
      {
        id: "research",
        title: "Research",
        role: "researcher",
        skills: ["web.search", "web.fetch"],
        instruction: "Find {{inputs.topic}}."
      },
      {
        id: "write",
        title: "Write",
        role: "writer",
        skills: ["docs.write_markdown"],
        instruction: "Write from {{steps.research.output}}."
      }
    ],
    outputKinds: ["markdown"],
    isPublic: false,
    ...fields
  })

export const createGenerator = (client: Client, name: string, fields: Record<string, unknown> = {}) =>
  run(client.api.studioGenerators.createGenerator({ payload: generatorDraft(name, fields) }))

/** Publishes a listing of a fresh generator of the seller's. */
export const sellGenerator = async (seller: Client, title: string, priceCredits: number) => {
  const generator = await createGenerator(seller, title)
  const listing = await run(
    seller.api.market.publishListing({
      payload: listingInput({ kind: "generator", refId: generator.id, title, priceCredits })
    })
  )
  return { generator, listing }
}

/** `count` members registered with codes the owner mints in one go (minting is rate-limited per owner). */
export const members = async (node: TestNode, owner: Registered, count: number): Promise<Array<Registered>> => {
  const codes = await run(owner.client.api.auth.mintCodes({ payload: { count, note: "market" } }))
  // A few at a time: what these tests race is buys, not registrations (each a bcrypt hash).
  const registered: Array<Registered> = []
  for (let at = 0; at < codes.length; at += 5) {
    registered.push(
      ...(await Promise.all(
        codes.slice(at, at + 5).map(async ({ code }) => {
          const client = new Client(node.url)
          const registration = person(code)
          const { being } = await run(client.api.authPublic.register({ payload: registration }))
          return { client, registration, being }
        })
      ))
    )
  }
  return registered
}

interface LedgerState {
  /** The sum of every entry on every account, the mint's included: zero, always. */
  readonly total: number
  /** Accounts whose stored balance differs from the sum of their entries. */
  readonly drifted: ReadonlyArray<string>
  readonly mintBalance: number
}

export const ledgerState = (node: TestNode): Promise<LedgerState> =>
  node.runtime.runPromise(
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const [sum] = yield* sql<{ total: number | null }>`SELECT SUM(amount) AS total FROM market_ledger`
      const drifted = yield* sql<{ account: string }>`SELECT w.account FROM market_wallets w
        WHERE w.balance <> COALESCE((SELECT SUM(amount) FROM market_ledger l WHERE l.account = w.account), 0)`
      const [mint] = yield* sql<{ balance: number }>`SELECT balance FROM market_wallets WHERE account = 'mint'`
      return { total: sum?.total ?? 0, drifted: drifted.map((row) => row.account), mintBalance: mint?.balance ?? 0 }
    })
  )

/** What each being of the market's API tests' node starts with. */
export const START = 250

/** The market's API tests' node: its beings start with START credits, and `member()` draws one of `count` fresh members. */
export const marketNode = (count: number) => {
  const context = nodeWithOwner({ startingCredits: START })
  let pool: Array<Registered> = []
  beforeAll(async () => {
    pool = await members(context.node, context.owner, count)
  })
  return { context, member: async () => pool.pop()! }
}

export const market = (client: Client) => client.api.market
export const wallet = (client: Client) => run(market(client).wallet())
export const publish = (client: Client, body: Record<string, unknown>) =>
  market(client).publishListing({ payload: listingInput(body) })
export const buy = (client: Client, id: string) => market(client).buyListing({ path: { id } })
