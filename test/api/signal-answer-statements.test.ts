/**
 * What one answer to a signal costs the database, read from its trace (every trace sampled, exported to a test OTLP
 * receiver): docs/benchmarks.md's "One event → the last of 1,000 sockets" raises its event with this answer, and its
 * statements come before the publish. One conditional flip, nothing read before it: this fails when the read that
 * used to come first comes back.
 */
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { registerOwner, run, startNode, type TestNode } from "../support/node.ts"
import { SignalInput } from "../../actors/being/contract/signal.ts"
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from "../support/otlp-receiver.ts"

let collector: OtlpReceiver
let node: TestNode
beforeAll(async () => {
  collector = await startOtlpReceiver()
  node = await startNode({ otlpEndpoint: Option.some(collector.endpoint), tracesSampleRatio: 1 })
})
afterAll(async () => {
  await node.close()
  await collector.close()
})

/** The spans of `root`'s trace under it, itself included. */
const subtree = (spans: ReadonlyArray<ReceivedSpan>, root: ReceivedSpan) => {
  const found = [root]
  for (let i = 0; i < found.length; i++) {
    for (const span of spans)
      if (span.parentSpanId === found[i]!.spanId && span.traceId === root.traceId) found.push(span)
  }
  return found
}

const queryText = (span: ReceivedSpan) =>
  String(span.attributes.find((attribute) => attribute.key === "db.query.text")?.value.stringValue ?? "")

describe("the statements of one answer", () => {
  it("are one conditional flip in the answer's transaction, with nothing read before it", async () => {
    const owner = await registerOwner(node)
    const options = [
      { id: "yes", label: "Do it" },
      { id: "no", label: "No" }
    ]
    const { signal } = await run(
      owner.client.api.desktop.raiseSignal({
        payload: Schema.decodeUnknownSync(SignalInput)({ kind: "decision", title: "Ship it?", options })
      })
    )
    const answered = await run(
      owner.client.api.desktop.answerSignal({ path: { id: signal.id }, payload: { optionId: "yes" } })
    )
    expect(answered).toMatchObject({ id: signal.id, status: "answered", answer: "yes" })
    const root = await expect
      .poll(() => collector.spans.find((span) => span.name === "desktop.answerSignal"), { timeout: 15_000 })
      .toBeDefined()
      .then(() => collector.spans.find((span) => span.name === "desktop.answerSignal")!)
    // A span is exported when it ends, after its children: the transaction's arrival brings its statements.
    await expect
      .poll(() => subtree(collector.spans, root).some((span) => span.name === "sql.transaction"), { timeout: 15_000 })
      .toBe(true)
    const statements = subtree(collector.spans, root)
      .filter((span) => span.name === "sql.execute")
      .map((span) => queryText(span).replace(/\s+/g, " ").slice(0, 60))
    expect(statements, statements.join("\n")).toHaveLength(1)
    expect(statements[0]).toMatch(/^UPDATE signals SET status = 'answered'/)
  })
})
