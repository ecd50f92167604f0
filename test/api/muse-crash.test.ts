/**
 * One node on SQLite, as its own process, killed (SIGKILL) while the Muse streams a reply: started
 * again over the same data folder, it closes that reply (stored as far as it went, saying it was
 * cut off) instead of leaving it unanswered, and the thread answers the next message.
 */
import { afterAll, beforeAll, expect, it } from "vitest"
import { startChildNode, type ChildNode } from "../support/child-node.ts"
import { until } from "../support/until.ts"
import { LiveTab } from "../support/live.ts"
import { Client, person, firstPage, run, type TestNode } from "../support/node.ts"
import { startOpenAiServer, type OpenAiServer } from "../support/openai-server.ts"

let models: OpenAiServer
let first: ChildNode
let again: ChildNode | undefined

beforeAll(async () => {
  models = await startOpenAiServer()
  first = await startChildNode({ env: { LLM_STANDARD_BASE_URL: models.baseUrl } })
}, 60_000)
afterAll(async () => {
  await again?.close()
  await first?.close()
  await models?.close()
})

it("closes at the next start a reply its process was streaming when killed, and answers again", async () => {
  const owner = new Client(first.url)
  await run(owner.api.authPublic.register({ payload: person(first.ownerCode) }))
  const [thread] = await run(owner.api.threads.listThreads({ urlParams: { kind: "muse", ...firstPage } }))
  const tab = await LiveTab.open({ url: first.url } as TestNode, owner)
  tab.send({ type: "subscribe", topic: `thread:${thread!.id}` })
  await tab.nextOf("subscribed")
  models.script("chat", {
    content: Array.from({ length: 200 }, (_, index) => `tale${index}`).join(" "),
    chunkDelayMs: 100
  })
  await run(owner.api.threads.postMessage({ path: { id: thread!.id }, payload: { content: "A very long story" } }))
  const thinking = await tab.nextOf("message.delta", (frame) => frame.delta === "", 20_000)
  // Past the first renewal of the reply's lease (every 2 s), which records the text so far.
  await tab.nextOf("message.delta", (frame) => frame.delta.startsWith("tale30"), 20_000)
  expect(await first.kill()).toBe("SIGKILL")

  again = await startChildNode({
    dataDir: first.dataDir,
    port: first.port,
    ownerCode: first.ownerCode,
    env: { LLM_STANDARD_BASE_URL: models.baseUrl }
  })
  const closed = await until(
    "the thinking message closed",
    async () => {
      const messages = await run(owner.api.threads.listMessages({ path: { id: thread!.id } }))
      return messages.find((message) => message.id === thinking.messageId)
    },
    30_000
  )
  expect(closed.content).toMatch(/^tale0 tale1 tale2 tale3 /)
  expect(closed.content).toMatch(/could not finish this reply: the node's process that was writing it stopped/)
  // The model was asked once for it, never again; the next message is answered.
  expect(models.requestsFor("chat")).toHaveLength(1)
  models.script("chat", { content: "Here again." })
  const next = await LiveTab.open({ url: again.url } as TestNode, owner)
  next.send({ type: "subscribe", topic: `thread:${thread!.id}` })
  await next.nextOf("subscribed")
  await run(owner.api.threads.postMessage({ path: { id: thread!.id }, payload: { content: "Are you there?" } }))
  expect(
    (await next.nextOf("message.created", (frame) => frame.message.role === "assistant", 20_000)).message.content
  ).toBe("Here again.")
  await Promise.all([tab.close(), next.close()])
}, 120_000)
