/**
 * What one buy costs the database, read from its trace (every trace sampled, exported to a test OTLP receiver): the
 * statements of the buy itself (its transaction and what it does before answering), and those of its two
 * celebrations. A buy of a listing with nothing to copy, by a buyer whose wallet is open, is docs/benchmarks.md's
 * "Buys per second": these counts fail when a statement comes back (a wallet read twice, one row per statement, a
 * wallet read again after the commit), and when a celebration that needs no order (the buyer's, responsive) goes
 * through the being actor's round trip again (docs/decisions.md, "A raise at the cost of its row").
 */
import * as Option from "effect/Option"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { registerMember, registerOwner, run, startNode, type TestNode } from "../support/node.ts"
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from "../support/otlp-receiver.ts"
import { buy, listingInput, market } from "./market-support.ts"

let collector: OtlpReceiver
let node: TestNode
beforeAll(async () => {
  collector = await startOtlpReceiver()
  node = await startNode({ otlpEndpoint: Option.some(collector.endpoint), tracesSampleRatio: 1, startingCredits: 100 })
})
afterAll(async () => {
  await node.close()
  await collector.close()
})

/** The spans of a trace under `root` (itself included), leaving out the subtrees of the spans `apart` names. */
const subtree = (spans: ReadonlyArray<ReceivedSpan>, root: ReceivedSpan, apart: ReadonlyArray<string> = []) => {
  const children = new Map<string, Array<ReceivedSpan>>()
  for (const span of spans) {
    if (span.traceId !== root.traceId || span.parentSpanId === undefined) continue
    children.set(span.parentSpanId, [...(children.get(span.parentSpanId) ?? []), span])
  }
  const found: Array<ReceivedSpan> = []
  const walk = (span: ReceivedSpan) => {
    found.push(span)
    for (const child of children.get(span.spanId) ?? []) if (!apart.includes(child.name)) walk(child)
  }
  walk(root)
  return found
}

const queryText = (span: ReceivedSpan) =>
  String(span.attributes.find((attribute) => attribute.key === "db.query.text")?.value.stringValue ?? "")

/** The statements under a span, each as the first words of its SQL (what a failure prints). */
const statementsUnder = (spans: ReadonlyArray<ReceivedSpan>) =>
  spans.filter((span) => span.name === "sql.execute").map((span) => queryText(span).slice(0, 60))

/** The `market.buy` span that arrives after those already seen, and its whole subtree once its celebration arrived. */
const nextBuy = async (seen: ReadonlySet<string>) => {
  const root = await expect
    .poll(() => collector.spans.find((span) => span.name === "market.buy" && !seen.has(span.spanId)), {
      timeout: 15_000
    })
    .toBeDefined()
    .then(() => collector.spans.find((span) => span.name === "market.buy" && !seen.has(span.spanId))!)
  // A span is exported when it ends, after its children: the celebration's arrival brings all of its statements.
  await expect
    .poll(() => subtree(collector.spans, root).some((span) => span.name === "market.celebrate"), { timeout: 15_000 })
    .toBe(true)
  return root
}

describe("the statements of one buy", () => {
  it("are ten for the buy, all in its transaction, and five for its two celebrations, one through the actor", async () => {
    const owner = await registerOwner(node)
    const buyer = await registerMember(node, owner.client)
    const publish = (title: string) =>
      run(
        market(owner.client).publishListing({
          payload: listingInput({ kind: "generator", refId: null, title, priceCredits: 1 })
        })
      )
    const first = await publish("Tide table")
    const second = await publish("Harbour log")
    // The first buy opens the buyer's wallet (and pays its starting credit); the one counted is the next.
    await run(buy(buyer.client, first.id))
    const opening = await nextBuy(new Set())
    const order = await run(buy(buyer.client, second.id))
    const root = await nextBuy(new Set([opening.spanId]))

    const all = subtree(collector.spans, root)
    const transaction = all.find((span) => span.name === "sql.transaction" && span.parentSpanId === root.spanId)
    expect(transaction).toBeDefined()
    const inTransaction = statementsUnder(subtree(collector.spans, transaction!))
    const buying = statementsUnder(subtree(collector.spans, root, ["market.celebrate"]))
    const celebrating = statementsUnder(all).length - buying.length
    // The listing, the wallets opened, the copy held already?, the transfer, its two entries, the sale, the copy's
    // slug and row, the order and the purchase; the wallets published after the commit are the rows the transfer
    // answered, so nothing is read after it.
    expect(inTransaction, inTransaction.join("\n")).toHaveLength(10)
    expect(buying, buying.join("\n")).toEqual(inTransaction)
    // The buyer's celebration (responsive) reads nothing before its insert; the seller's (proactive) reads the hush
    // settings, the time zone and today's count.
    expect(celebrating).toBe(5)
    // One message to a being actor: the seller's proactive raise, counted against the day's cap one at a time. The
    // buyer's responsive raise is written and published where it was raised.
    const raises = all.filter((span) => span.name === "desktop.raiseSignal")
    expect(raises).toHaveLength(2)
    const messages = all.filter((span) => span.name.startsWith("Being.client."))
    expect(messages.map((span) => span.name)).toEqual(["Being.client.RaiseSignal"])
    expect(order.deliveredId).not.toBeNull()
  })
})
