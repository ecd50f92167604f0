/**
 * A Muse reply read aloud over real HTTP: `POST /api/threads/:id/messages/:messageId/speech`
 * answers the speech tier's audio (from the scripted OpenAI-protocol server), charged to the
 * caller in characters and stored nowhere; refused plainly for another's thread, an unknown
 * message, a node with no speech tier, and a call above the spend ceiling.
 */
import { readdirSync } from "node:fs"
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

let models: OpenAiServer
let node: TestNode
let mute: TestNode
let owner: Registered
let member: Registered

beforeAll(async () => {
  models = await startOpenAiServer()
  const standard = { baseUrl: models.baseUrl, model: "standard-model" }
  // The speech tier is a priced remote provider; a call may cost at most a tenth of a cent.
  node = await startNode({
    ...noModelSettings,
    llmTiers: tierSettings({ standard, speech: { baseUrl: models.baseUrl, apiKey: "sk-speech", local: false } }),
    spendMaxCallUsd: 0.001
  })
  mute = await startNode({ ...noModelSettings, llmTiers: tierSettings({ standard }) })
  owner = await registerOwner(node)
  member = await registerMember(node, owner.client)
})
afterAll(async () => {
  await Promise.all([node.close(), mute.close()])
  await models.close()
})
beforeEach(() => models.reset())

/** Asks the Muse on `target` and waits for its reply to be stored. */
const museReply = async (target: TestNode, who: Registered, reply: string) => {
  const thread = (await run(who.client.api.threads.listThreads({ urlParams: { kind: "muse", ...firstPage } })))[0]!
  const tab = await LiveTab.open(target, who.client)
  tab.send({ type: "subscribe", topic: `thread:${thread.id}` })
  await tab.nextOf("subscribed")
  models.script("chat", { content: reply })
  await run(who.client.api.threads.postMessage({ path: { id: thread.id }, payload: { content: "Tell me something." } }))
  const created = await tab.nextOf(
    "message.created",
    (frame: FrameOf<"message.created">) => frame.message.role === "assistant"
  )
  await tab.close()
  return created.message
}

const speak = async (target: TestNode, who: Registered, threadId: string, messageId: string) => {
  const response = await fetch(`${target.url}/api/threads/${threadId}/messages/${messageId}/speech`, {
    method: "POST",
    headers: { cookie: who.client.cookieHeader() }
  })
  const bytes = new Uint8Array(await response.arrayBuffer())
  const json = () => JSON.parse(new TextDecoder().decode(bytes)) as { error: string; message: string }
  return {
    status: response.status,
    type: response.headers.get("content-type"),
    cache: response.headers.get("cache-control"),
    bytes,
    json
  }
}

const speechCalls = () =>
  node.runtime.runPromise(
    Effect.flatMap(
      SqlClient.SqlClient,
      (sql) =>
        sql<{
          beingId: string
          unit: string
          quantity: number
          purpose: string
        }>`SELECT being_id AS "beingId", unit, quantity, purpose FROM llm_calls WHERE tier = 'speech'`
    )
  )

describe("reading a Muse reply aloud", () => {
  it("answers the reply spoken as MP3, charged to the caller in characters, and keeps no audio", async () => {
    const reply = await museReply(node, member, "The sea is calm.")
    const filesBefore = readdirSync(node.dataDir, { recursive: true }).length
    const spoken = await speak(node, member, reply.threadId, reply.id)
    expect(spoken.status).toBe(200)
    expect(spoken.type).toBe("audio/mpeg")
    expect(spoken.cache).toBe("no-store")
    expect([...spoken.bytes.slice(0, 2)]).toEqual([0xff, 0xfb])
    const [asked] = models.requestsFor("speech")
    expect(asked!.body).toMatchObject({ input: "The sea is calm.", response_format: "mp3" })
    expect(asked!.headers.authorization).toBe("Bearer sk-speech")
    expect(await speechCalls()).toEqual([
      { beingId: member.being.id, unit: "speech_characters", quantity: 16, purpose: "muse read aloud" }
    ])
    // The database's own files may grow; no new file holds the audio.
    expect(readdirSync(node.dataDir, { recursive: true }).length).toBe(filesBefore)
  })

  it("is refused with 404 for another being's thread and for an unknown message, and nothing is spoken", async () => {
    const reply = await museReply(node, member, "Only for you.")
    const theirs = await speak(node, owner, reply.threadId, reply.id)
    expect(theirs.status).toBe(404)
    expect(theirs.json().error).toBe("thread_not_found")
    const unknown = await speak(node, member, reply.threadId, "no-such-message")
    expect(unknown.status).toBe(404)
    expect(unknown.json().error).toBe("message_not_found")
    expect(models.requestsFor("speech")).toEqual([])
  })

  it("is refused with 409 spend_ceiling_reached when the reading would pass a ceiling, before the provider is asked", async () => {
    // 100 characters at $15 a million: $0.0015, above the $0.001 ceiling of one call.
    const reply = await museReply(node, member, "x".repeat(100))
    const before = (await speechCalls()).length
    const refused = await speak(node, member, reply.threadId, reply.id)
    expect(refused.status).toBe(409)
    expect(refused.json()).toMatchObject({
      error: "spend_ceiling_reached",
      message: expect.stringContaining("SPEND_MAX_CALL_USD")
    })
    expect(models.requestsFor("speech")).toEqual([])
    expect((await speechCalls()).length).toBe(before)
  })

  it("on a node with no speech tier bound is refused with 503 models_unavailable, saying what to set", async () => {
    const mowner = await registerOwner(mute)
    const reply = await museReply(mute, mowner, "Hello.")
    const refused = await speak(mute, mowner, reply.threadId, reply.id)
    expect(refused.status).toBe(503)
    expect(refused.json()).toMatchObject({
      error: "models_unavailable",
      message: expect.stringContaining("'speech' tier")
    })
    expect(refused.json().message).toContain("bind the tier in Settings → Models")
    expect(models.requestsFor("speech")).toEqual([])
  })
})
