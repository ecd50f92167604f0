/**
 * The Muse replying over real HTTP and real sockets, the standard tier bound to the scripted
 * OpenAI server: the reply streams on `thread:<id>` (thinking first, deltas, message.created) in
 * character with the twin's memories and profile; tools run with their chips, a world-acting one
 * raises the owner's decision instead; a socket that subscribes mid-reply gets the reply so far,
 * then the rest; a reply nobody listened to is in the thread; spend is recorded.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { LiveTab, type FrameOf } from "../support/live.ts"
import { noModelSettings, tierSettings } from "../support/models.ts"
import { startOpenAiServer, type OpenAiServer } from "../support/openai-server.ts"
import {
  registerMember,
  registerOwner,
  firstPage,
  run,
  startNode,
  type Registered,
  type TestNode
} from "../support/node.ts"

let node: TestNode
let owner: Registered
let member: Registered
let models: OpenAiServer

beforeAll(async () => {
  models = await startOpenAiServer()
  node = await startNode({
    ...noModelSettings,
    llmTiers: tierSettings({ standard: { baseUrl: models.baseUrl, model: "standard-model" } })
  })
  owner = await registerOwner(node)
  member = await registerMember(node, owner.client)
})
afterAll(async () => {
  await node.close()
  await models.close()
})
beforeEach(() => models.reset())

const museThread = async (who: Registered) =>
  (await run(who.client.api.threads.listThreads({ urlParams: { kind: "muse", ...firstPage } })))[0]!

const following = async (who: Registered, threadId: string) => {
  const tab = await LiveTab.open(node, who.client)
  tab.send({ type: "subscribe", topic: `thread:${threadId}` })
  await tab.nextOf("subscribed")
  return tab
}

const llmCalls = () =>
  node.runtime.runPromise(
    Effect.flatMap(
      SqlClient.SqlClient,
      (sql) =>
        sql<{
          purpose: string
          tier: string
          beingId: string
        }>`SELECT purpose, tier, being_id AS "beingId" FROM llm_calls`
    )
  )

describe("a Muse reply", () => {
  it("streams in character with the twin's memories and profile, then is stored, with spend recorded", async () => {
    await run(member.client.api.twin.patchPreferences({ payload: { museName: "Calliope" } }))
    await run(member.client.api.twin.patchProfile({ payload: { facts: ["Plays the cello every evening"] } }))
    await run(
      member.client.api.twin.createMemory({ payload: { content: "The cello recital is on the 12th of March" } })
    )
    const thread = await museThread(member)
    const tab = await following(member, thread.id)
    const presence = await LiveTab.open(node, member.client)
    models.script("chat", { content: "Your recital is on the 12th of March. Shall we practise?" })

    const sent = await run(
      member.client.api.threads.postMessage({
        path: { id: thread.id },
        payload: { content: "When is my cello recital?" }
      })
    )
    const frames = await tab.upTo(
      (frame) => frame.type === "message.created" && frame.message.role === "assistant",
      10_000
    )
    const deltas = frames.filter((frame): frame is FrameOf<"message.delta"> => frame.type === "message.delta")
    expect(deltas[0]!.delta).toBe("")
    const reply = (frames.at(-1) as FrameOf<"message.created">).message
    expect(deltas.every((delta) => delta.messageId === reply.id)).toBe(true)
    expect(deltas.map((delta) => delta.delta).join("")).toBe("Your recital is on the 12th of March. Shall we practise?")
    expect(reply).toMatchObject({
      role: "assistant",
      authorId: null,
      content: "Your recital is on the 12th of March. Shall we practise?",
      toolCalls: []
    })
    expect(await run(member.client.api.threads.listMessages({ path: { id: thread.id } }))).toEqual([sent, reply])

    const [asked] = models.requestsFor("chat")
    expect(asked!.model).toBe("standard-model")
    const system = String(asked!.body.messages![0]!.content)
    expect(system).toContain("You are Calliope")
    expect(system).toContain("Plays the cello every evening")
    expect(system).toContain("The cello recital is on the 12th of March")
    expect(asked!.body.messages!.at(-1)).toMatchObject({ role: "user", content: "When is my cello recital?" })
    expect(await llmCalls()).toContainEqual({ purpose: "muse reply", tier: "standard", beingId: member.being.id })

    expect((await presence.nextOf("presence.update", (frame) => frame.doing !== undefined)).doing).toBe(
      "Calliope is replying"
    )
    expect(
      (await presence.nextOf("presence.update", (frame) => frame.beingId === member.being.id)).doing
    ).toBeUndefined()
    await Promise.all([tab.close(), presence.close()])
  })

  it("runs a non-world-acting tool with its chip, and a world-acting one raises the owner's decision instead", async () => {
    const thread = await museThread(owner)
    const tab = await following(owner, thread.id)
    models.script(
      "chat",
      { toolCalls: [{ id: "call_math", name: "math__evaluate", arguments: { expression: "6 * 7" } }] },
      {
        toolCalls: [
          { id: "call_http", name: "http__request", arguments: { method: "POST", url: "https://example.org/hook" } }
        ]
      },
      { content: "It is 42, and the request waits for you." }
    )
    await run(
      owner.client.api.threads.postMessage({
        path: { id: thread.id },
        payload: { content: "What is six times seven? Then tell the hook." }
      })
    )
    const frames = await tab.upTo(
      (frame) => frame.type === "message.created" && frame.message.role === "assistant",
      10_000
    )
    const chips = frames
      .filter((frame): frame is FrameOf<"message.tool"> => frame.type === "message.tool")
      .map((frame) => frame.toolCall)
    expect(chips.filter((chip) => chip.id === "call_math").map((chip) => chip.state)).toEqual([
      "pending",
      "running",
      "done"
    ])
    expect(chips.filter((chip) => chip.id === "call_http").map((chip) => chip.state)).toEqual([
      "pending",
      "running",
      "error"
    ])
    const reply = (frames.at(-1) as FrameOf<"message.created">).message
    expect(reply.content).toBe("It is 42, and the request waits for you.")
    const [math, http] = reply.toolCalls
    expect(math).toMatchObject({ name: "math.evaluate", state: "done", error: null, approval: null })
    expect(http).toMatchObject({ name: "http.request", state: "error", approval: { signalId: expect.any(String) } })
    // The model read the tool's result.
    const second = models.requestsFor("chat")[1]!
    expect(second.body.messages!.at(-1)).toMatchObject({ role: "tool", tool_call_id: "call_math" })
    expect(String(second.body.messages!.at(-1)!.content)).toContain("42")
    const signals = await run(
      owner.client.api.desktop.listSignals({ urlParams: { status: "open", limit: 100, offset: 0 } })
    )
    expect(signals.find((signal) => signal.id === http!.approval!.signalId)).toMatchObject({ kind: "decision" })
    await tab.close()
  })

  it("survives a refresh: a socket that subscribes mid-reply gets the reply so far, then the rest", async () => {
    const thread = await museThread(member)
    const watching = await following(member, thread.id)
    const words = Array.from({ length: 40 }, (_, index) => `word${index}`).join(" ")
    models.script("chat", { content: words, chunkDelayMs: 25 })
    await run(
      member.client.api.threads.postMessage({ path: { id: thread.id }, payload: { content: "Tell me a long story" } })
    )
    // Some text has streamed: now a second tab (a refreshed page) subscribes.
    await watching.nextOf("message.delta", (frame) => frame.delta.startsWith("word3"))
    const late = await following(member, thread.id)
    const frames = await late.upTo((frame) => frame.type === "message.created", 10_000)
    const deltas = frames.filter((frame): frame is FrameOf<"message.delta"> => frame.type === "message.delta")
    expect(deltas[0]!.delta.startsWith("word0 word1 word2 word3")).toBe(true)
    expect(deltas.length).toBeGreaterThan(1)
    expect(deltas.map((delta) => delta.delta).join("")).toBe(words)
    expect((frames.at(-1) as FrameOf<"message.created">).message.content).toBe(words)
    await Promise.all([watching.close(), late.close()])
  })

  it("finishes while nobody listens and is in the thread afterwards", async () => {
    const thread = await museThread(owner)
    models.script("chat", { content: "Nobody heard this, but here it is." })
    // A tab that follows no thread: the being's presence says when the Muse has finished.
    const desk = await LiveTab.open(node, owner.client)
    const sent = await run(
      owner.client.api.threads.postMessage({ path: { id: thread.id }, payload: { content: "Reply while I am away" } })
    )
    await desk.nextOf("presence.update", (frame) => frame.doing !== undefined, 10_000)
    await desk.nextOf("presence.update", (frame) => frame.doing === undefined, 10_000)
    const stored = await run(owner.client.api.threads.listMessages({ path: { id: thread.id } }))
    expect(stored.slice(-2)).toEqual([
      sent,
      expect.objectContaining({ role: "assistant", content: "Nobody heard this, but here it is." })
    ])
    expect(desk.frames.filter((frame) => frame.type.startsWith("message."))).toEqual([])
    await desk.close()
  })

  it("says so in the thread when a spend ceiling refuses the call", async () => {
    const capped = await startNode({
      ...noModelSettings,
      // A remote binding (keyed, priced): a local server costs nothing, so no ceiling would bite.
      llmTiers: tierSettings({
        standard: { baseUrl: models.baseUrl, model: "gpt-4o-mini", apiKey: "sk-test", local: false }
      }),
      spendMaxDayUsd: 0
    })
    try {
      const someone = await registerOwner(capped)
      const [thread] = await run(someone.client.api.threads.listThreads({ urlParams: { kind: "muse", ...firstPage } }))
      const tab = await LiveTab.open(capped, someone.client)
      tab.send({ type: "subscribe", topic: `thread:${thread!.id}` })
      await tab.nextOf("subscribed")
      await run(someone.client.api.threads.postMessage({ path: { id: thread!.id }, payload: { content: "Hello?" } }))
      const reply = await tab.nextOf("message.created", (frame) => frame.message.role === "assistant")
      expect(reply.message.content).toMatch(/spend ceiling/)
      expect(models.requestsFor("chat")).toEqual([])
      await tab.close()
    } finally {
      await capped.close()
    }
  })
})
