/**
 * The Muse's path to its first word, read from the node's own trace (every span exported to a test collector): the
 * reply's request to the model is made before the inbox is told of the message and before the twin queues it to
 * learn from (both follow beside the reply, and both still happen), and the reply reads the being's profile once
 * for the Muse's name and the prompt; telling the inbox of a muse thread reads no other being's name. The reply's fiber
 * takes its first step before the POST's answer is encoded and written.
 */
import * as Option from "effect/Option"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { LiveTab } from "../support/live.ts"
import { noModelSettings, tierSettings } from "../support/models.ts"
import { startOpenAiServer, type OpenAiServer } from "../support/openai-server.ts"
import { firstPage, registerOwner, run, startNode, type TestNode } from "../support/node.ts"
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from "../support/otlp-receiver.ts"

let node: TestNode
let models: OpenAiServer
let collector: OtlpReceiver

beforeAll(async () => {
  collector = await startOtlpReceiver()
  models = await startOpenAiServer()
  node = await startNode({
    ...noModelSettings,
    llmTiers: tierSettings({ standard: { baseUrl: models.baseUrl, model: "standard-model" } }),
    otlpEndpoint: Option.some(collector.endpoint),
    tracesSampleRatio: 1
  })
})
afterAll(async () => {
  await node.close()
  await models.close()
  await collector.close()
})

const startOf = (span: ReceivedSpan) => BigInt(span.startTimeUnixNano ?? "0")
const endOf = (span: ReceivedSpan) => BigInt(span.endTimeUnixNano ?? "0")

describe("a message to the Muse", () => {
  it("has its reply ask the model before the inbox and the twin's learning hear of it, reading the profile once", async () => {
    const owner = await registerOwner(node)
    const [thread] = await run(owner.client.api.threads.listThreads({ urlParams: { kind: "muse", ...firstPage } }))
    const tab = await LiveTab.open(node, owner.client)
    tab.send({ type: "subscribe", topic: `thread:${thread!.id}` })
    await tab.nextOf("subscribed")
    models.script("chat", { content: "Here I am." })

    await run(
      owner.client.api.threads.postMessage({ path: { id: thread!.id }, payload: { content: "Are you there?" } })
    )
    // The inbox still hears of the message, and of the reply.
    await tab.upTo((frame) => frame.type === "message.created" && frame.message.role === "assistant", 10_000)
    await tab.nextOf("thread.updated", (frame) => frame.thread.preview === "Here I am.")

    const post = await expect
      .poll(() => collector.spans.find((span) => span.name === "POST /api/threads/:id/messages"), { timeout: 15_000 })
      .toBeDefined()
      .then(() => collector.spans.find((span) => span.name === "POST /api/threads/:id/messages")!)
    const inTrace = (name: string) =>
      collector.spans
        .filter((span) => span.traceId === post.traceId && span.name === name)
        .sort((a, b) => (startOf(a) < startOf(b) ? -1 : 1))
    await expect.poll(() => inTrace("models.recordCall").length, { timeout: 15_000 }).toBe(1)
    const [started] = inTrace("muse.start")
    const [reply] = inTrace("muse.reply")
    const [asked] = inTrace("models.chatStream")
    const [told] = inTrace("threads.announce")
    const learning = inTrace("twin.enqueueLearning")
    expect([started, reply, asked, told, learning[0]].every((span) => span !== undefined)).toBe(true)

    // The model was asked before the inbox was told and the message queued for learning, which follow the start.
    expect(startOf(told!)).toBeGreaterThan(endOf(started!))
    expect(startOf(asked!)).toBeLessThan(startOf(told!))
    expect(startOf(asked!)).toBeLessThan(startOf(learning[0]!))
    // The reply's first step (its round begun under the lease) is taken before the POST is answered, not after.
    const [begun] = inTrace("muse.beginRound")
    expect(begun).toBeDefined()
    expect(startOf(begun!)).toBeLessThan(endOf(post))
    // One read of the profile gives the reply the Muse's name and the prompt's profile.
    const profileReads = inTrace("twin.getProfile").filter(
      (span) => startOf(span) >= startOf(reply!) && startOf(span) < startOf(asked!)
    )
    expect(profileReads).toHaveLength(1)
    // A muse thread has no other being whose name would title it.
    expect(inTrace("auth.findPublicMany")).toEqual([])
    await tab.close()
  })
})
