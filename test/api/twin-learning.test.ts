/**
 * The twin's learning loop over a real node: a being's own message to its Muse is queued and
 * learned by the loop's next tick (the cheap tier of a scripted model server extracts it),
 * arriving as `memory.created` and a `learned` activity on the being's socket; a near-duplicate is
 * not stored twice; nothing another being wrote reaches a twin. `GET/PUT /api/twin/learning`
 * show and switch each source, switching one off drops what it queued and stops it queueing,
 * and every refusal changes nothing. A second node with the default interval (five minutes, so
 * it never ticks here) shows the queue as the writers leave it.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { LiveTab, type LiveFrame } from "../support/live.ts"
import { embedByMeaning } from "../support/meanings.ts"
import { noModelSettings, tierSettings } from "../support/models.ts"
import { startOpenAiServer, type OpenAiServer } from "../support/openai-server.ts"
import type { ReceivedRequest } from "../support/openai-replies.ts"
import {
  apiError,
  registerMember,
  registerOwner,
  firstPage,
  run,
  startNode,
  type Registered,
  type TestNode
} from "../support/node.ts"

let models: OpenAiServer
/** Ticks every 200 ms: what is queued is learned almost at once. */
let fast: TestNode
let owner: Registered
/** Never ticks within the test: the queue stays as the writers leave it. */
let slow: TestNode
let slowOwner: Registered

/** The text the user message of a learning call carries. */
const learnedText = (request: ReceivedRequest) =>
  String(request.body.messages?.find((message) => message.role === "user")?.content ?? "")

beforeAll(async () => {
  models = await startOpenAiServer()
  const tiers = tierSettings({
    cheap: { baseUrl: models.baseUrl, model: "cheap-model" },
    embed: { baseUrl: models.baseUrl, model: "meaning-embed" }
  })
  fast = await startNode({ ...noModelSettings, llmTiers: tiers, learnIntervalMs: 200 })
  slow = await startNode({ ...noModelSettings, llmTiers: tiers })
  owner = await registerOwner(fast)
  slowOwner = await registerOwner(slow)
})
afterAll(async () => {
  await fast.close()
  await slow.close()
  await models.close()
})
beforeEach(() => {
  models.reset()
  models.handle(
    "embeddings",
    embedByMeaning([
      ["dog", "retriever", "puppy"],
      ["tea", "oolong"],
      ["cat", "kitten"]
    ])
  )
  // Each queued piece becomes one fact, worded as it was written.
  models.handle("chat", (request) => ({
    content: JSON.stringify({
      memories: learnedText(request)
        .split("\n\n---\n\n")
        .map((content) => ({ content: content.trim(), kind: "fact", importance: 0.5, tags: [] }))
    })
  }))
})

const museThreadOf = async (who: Registered) =>
  (await run(who.client.api.threads.listThreads({ urlParams: { kind: "muse", ...firstPage } })))[0]!

const tellMuse = async (who: Registered, content: string) =>
  run(who.client.api.threads.postMessage({ path: { id: (await museThreadOf(who)).id }, payload: { content } }))

const isLearned = (frame: LiveFrame) => frame.type === "twin.activity" && frame.kind === "learned"

/** Tells the Muse and waits for the loop's `learned` activity; answers the frames up to it. */
const tellAndLearn = async (who: Registered, content: string) => {
  const tab = await LiveTab.open(fast, who.client)
  await tellMuse(who, content)
  const frames = await tab.upTo(isLearned)
  tab.close()
  return frames
}

const memoriesOf = async (who: Registered) =>
  (await run(who.client.api.twin.searchMemories({ urlParams: { limit: 100, offset: 0 } }))).map(
    (memory) => memory.content
  )

describe("learning from the being's own words to its Muse", () => {
  it("learns a Muse-thread message on the loop's next tick: memory.created and a learned activity on the socket", async () => {
    const frames = await tellAndLearn(owner, "My dog Biscuit is a golden retriever.")
    const created = frames.flatMap((frame) => (frame.type === "memory.created" ? [frame.memory] : []))
    expect(created).toEqual([
      expect.objectContaining({
        content: "My dog Biscuit is a golden retriever.",
        kind: "fact",
        source: "Muse threads"
      })
    ])
    expect(frames.at(-1)).toMatchObject({
      type: "twin.activity",
      kind: "learned",
      summary: "Learned 1 memory from Muse threads"
    })
    const [asked] = models.requestsFor("chat")
    expect(asked?.model).toBe("cheap-model")
    // Only the being's words: never the Muse's reply (here, that it is asleep).
    expect(learnedText(asked!)).toBe("My dog Biscuit is a golden retriever.")
    expect(await memoriesOf(owner)).toEqual(["My dog Biscuit is a golden retriever."])
    expect((await run(owner.client.api.twin.getLearning())).queued).toBe(0)
  })

  it("does not store a near-duplicate of what the twin already holds", async () => {
    const frames = await tellAndLearn(owner, "Biscuit is my retriever puppy.")
    expect(frames.some((frame) => frame.type === "memory.created")).toBe(false)
    expect(frames.at(-1)).toMatchObject({ summary: "Learned 0 memories from Muse threads (1 already known)" })
    expect(await memoriesOf(owner)).toEqual(["My dog Biscuit is a golden retriever."])
  })

  it("never learns another being's text: a member's message in a shared thread reaches no twin; the member's own Muse feeds only the member's", async () => {
    const member = await registerMember(fast, owner.client)
    const shared = await run(
      member.client.api.threads.openThread({ payload: { kind: "direct", withBeingId: owner.being.id } })
    )
    await run(
      member.client.api.threads.postMessage({
        path: { id: shared.id },
        payload: { content: "My cat Tom hates Mondays." }
      })
    )
    await run(
      owner.client.api.threads.postMessage({ path: { id: shared.id }, payload: { content: "Tom the cat again?" } })
    )

    await tellAndLearn(owner, "I drink oolong at four.")
    const memberFrames = await tellAndLearn(member, "I keep a kitten called Tom.")
    expect(memberFrames.filter((frame) => frame.type === "memory.created")).toEqual([
      { type: "memory.created", memory: expect.objectContaining({ content: "I keep a kitten called Tom." }) }
    ])
    const asked = models.requestsFor("chat").map(learnedText)
    expect(asked.sort()).toEqual(["I drink oolong at four.", "I keep a kitten called Tom."])
    expect(await memoriesOf(owner)).not.toContainEqual(expect.stringContaining("Tom"))
    expect(await memoriesOf(member)).toEqual(["I keep a kitten called Tom."])
  })
})

describe("GET and PUT /api/twin/learning", () => {
  const allOn = { thread: true, chat: true, mail: true, file: true }

  it("queues the being's Muse messages; switching thread off drops them and queues no more; on again queues again", async () => {
    expect(await run(slowOwner.client.api.twin.getLearning())).toEqual({ sources: allOn, queued: 0 })
    await tellMuse(slowOwner, "I row on Sundays.")
    await tellMuse(slowOwner, "My sister lives in Lyon.")
    expect(await run(slowOwner.client.api.twin.getLearning())).toEqual({ sources: allOn, queued: 2 })

    const off = { ...allOn, thread: false }
    expect(await run(slowOwner.client.api.twin.putLearning({ payload: { sources: { thread: false } } }))).toEqual({
      sources: off,
      queued: 0
    })
    await tellMuse(slowOwner, "I moved to Porto.")
    expect(await run(slowOwner.client.api.twin.getLearning())).toEqual({ sources: off, queued: 0 })

    expect(
      await run(slowOwner.client.api.twin.putLearning({ payload: { sources: { thread: true, mail: false } } }))
    ).toEqual({
      sources: { ...allOn, mail: false },
      queued: 0
    })
    await tellMuse(slowOwner, "I moved back to Lyon.")
    expect(await run(slowOwner.client.api.twin.getLearning())).toEqual({
      sources: { ...allOn, mail: false },
      queued: 1
    })
    await run(slowOwner.client.api.twin.putLearning({ payload: { sources: { mail: true } } }))
  })

  it("queues nothing for anyone from a direct thread; each being's switches are its own", async () => {
    const member = await registerMember(slow, slowOwner.client)
    const before = await run(slowOwner.client.api.twin.getLearning())
    const shared = await run(
      member.client.api.threads.openThread({ payload: { kind: "direct", withBeingId: slowOwner.being.id } })
    )
    await run(
      member.client.api.threads.postMessage({ path: { id: shared.id }, payload: { content: "A secret of mine." } })
    )
    expect(await run(member.client.api.twin.getLearning())).toEqual({ sources: allOn, queued: 0 })
    expect(await run(slowOwner.client.api.twin.getLearning())).toEqual(before)

    expect(await run(member.client.api.twin.putLearning({ payload: { sources: { file: false } } }))).toEqual({
      sources: { ...allOn, file: false },
      queued: 0
    })
    expect(await run(slowOwner.client.api.twin.getLearning())).toEqual(before)
  })

  it("refuses a bad body with 400 and no session with 401, changing nothing", async () => {
    const before = await run(slowOwner.client.api.twin.getLearning())
    for (const body of [
      {},
      { sources: { thread: "no" } },
      { sources: { gossip: true } },
      { sources: {}, extra: 1 },
      { sources: null },
      []
    ]) {
      const answer = await slowOwner.client.raw("PUT", "/api/twin/learning", body)
      expect({ status: answer.status, error: apiError(answer).error }, JSON.stringify(body)).toEqual({
        status: 400,
        error: "invalid_request"
      })
    }
    expect(await run(slowOwner.client.api.twin.getLearning())).toEqual(before)
    expect((await fetch(`${slow.url}/api/twin/learning`)).status).toBe(401)
    const anonymous = await fetch(`${slow.url}/api/twin/learning`, {
      method: "PUT",
      headers: { "content-type": "application/json", origin: slow.url },
      body: JSON.stringify({ sources: { thread: false } })
    })
    expect(anonymous.status).toBe(401)
    expect(await run(slowOwner.client.api.twin.getLearning())).toEqual(before)
  })
})
