/**
 * The Muse on a node of two processes (two real nodes over one PostgreSQL, each a socket runner):
 * a message posted through one while the other's reply streams gets a second reply after it; a
 * tab on one process follows a reply streaming on the other, and a tab joining mid-reply there
 * gets the reply so far; the chat bridge's wait is answered by a reply made on the other process;
 * and when the process streaming a reply is killed (SIGKILL), the survivor closes the reply
 * within seconds, saying it was cut off, without calling the model again for it.
 * Each process calls the scripted model server with its own key, so the calls say who made them.
 */
import { writeFileSync } from "node:fs"
import pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startBotApi, type BotApi, type ChatOf } from "../support/bot-api.ts"
import { startChildNode, type ChildNode } from "../support/child-node.ts"
import { freePort } from "../support/free-port.ts"
import { until } from "../support/until.ts"
import { LiveTab, type FrameOf, type LiveFrame } from "../support/live.ts"
import { Client, person, firstPage, run, type TestNode } from "../support/node.ts"
import { startOpenAiServer, type OpenAiServer } from "../support/openai-server.ts"
import type { ChatReply, ReceivedRequest } from "../support/openai-replies.ts"
import { startPostgres, type TestPostgres } from "../support/postgres.ts"

const botToken = "111:muse-node-bot"
let models: OpenAiServer
let bots: BotApi
let postgres: TestPostgres
let databaseUrl: string
const processes: Array<ChildNode> = []
let owner: Client
let registration: ReturnType<typeof person>
/** How the scripted model answers the Muse, by the newest thing the person said. */
let answer: (asked: string) => ChatReply = (asked) => ({ content: `You said: ${asked}` })

const keyOf = (index: number) => `sk-muse-${index}`
/** Which process made a model call: the API key it sent. */
const callerOf = (request: ReceivedRequest) =>
  [0, 1].find((index) => request.headers.authorization === `Bearer ${keyOf(index)}`)
const lastAsked = (request: ReceivedRequest) =>
  String([...(request.body.messages ?? [])].reverse().find((message) => message.role === "user")?.content ?? "")
const museCalls = () => models.requestsFor("chat").filter((request) => request.body.stream === true)

const ownerCode = `owner-code-muse-${process.pid}`
const start = async (index: number, databaseUrl: string) => {
  const child = await startChildNode({
    ownerCode,
    env: {
      DATABASE_URL: databaseUrl,
      CLUSTER_RUNNER_ADDRESS: `127.0.0.1:${await freePort()}`,
      // Only the Muse's tier is bound: no other feature's model call takes the scripted replies.
      LLM_STANDARD_BASE_URL: models.baseUrl,
      LLM_STANDARD_API_KEY: keyOf(index),
      LLM_STANDARD_LOCAL: "false",
      ENCRYPTION_KEY: "a long passphrase for the tests",
      CHAT_A_API_URL: bots.url,
      CHAT_A_BOT_TOKEN: botToken,
      CHAT_A_POLL_TIMEOUT_SECONDS: "1"
    }
  })
  processes.push(child)
  return child
}

beforeAll(async () => {
  models = await startOpenAiServer()
  models.handle("chat", (request) => answer(lastAsked(request)))
  bots = await startBotApi({ [botToken]: "muse_bot" })
  postgres = await startPostgres()
  databaseUrl = await postgres.createDatabase()
  // One after the other: the first runs the migrations.
  await start(0, databaseUrl)
  await start(1, databaseUrl)
  owner = new Client(processes[0]!.url)
  registration = person(ownerCode)
  await run(owner.api.authPublic.register({ payload: registration }))
}, 120_000)
afterAll(async () => {
  if (process.env.MUSE_TEST_LOGS !== undefined)
    processes.forEach((child, index) => {
      writeFileSync(`${process.env.MUSE_TEST_LOGS}-${index}.log`, child.output())
    })
  await Promise.all(processes.map((child) => child.close()))
  await models?.close()
  await bots?.close()
  postgres?.stop()
})

/** The same person's browser, pointed at the process `index`. */
const browserOn = (index: number) => {
  const other = new Client(processes[index]!.url, { "x-forwarded-for": owner.headers["x-forwarded-for"]! })
  other.copyCookiesFrom(owner)
  return other
}

const museThread = async () =>
  (await run(owner.api.threads.listThreads({ urlParams: { kind: "muse", ...firstPage } })))[0]!

const followOn = async (index: number, threadId: string) => {
  const tab = await LiveTab.open({ url: processes[index]!.url } as TestNode, browserOn(index))
  tab.send({ type: "subscribe", topic: `thread:${threadId}` })
  await tab.nextOf("subscribed")
  return tab
}

const post = (index: number, threadId: string, content: string) =>
  run(browserOn(index).api.threads.postMessage({ path: { id: threadId }, payload: { content } }))

const isReply = (frame: LiveFrame): frame is FrameOf<"message.created"> =>
  frame.type === "message.created" && frame.message.role === "assistant"

/** No reply holds a lease: the previous test's last round has given it back, so the next post starts its own. */
const idle = () =>
  until(
    "no Muse reply holding a lease",
    async () => {
      const client = new pg.Client({ connectionString: databaseUrl })
      await client.connect()
      try {
        const { rows } = await client.query<{ count: string }>("SELECT COUNT(*) AS count FROM muse_replies")
        return Number(rows[0]!.count) === 0 ? true : undefined
      } finally {
        await client.end()
      }
    },
    30_000
  )

const words = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, index) => `${prefix}${index}`).join(" ")

describe("the Muse across processes", () => {
  it("answers a message posted through B while A's reply streams with a second reply after it, one at a time", async () => {
    await idle()
    const thread = await museThread()
    const tab = await followOn(0, thread.id)
    answer = (asked) => ({ content: `${words("slow", 12)} (to ${asked})`, chunkDelayMs: 40 })
    const before = museCalls().length
    // B posts once A's round has begun (its thinking delta): a message that came before the holder's first round
    // began would be read by that round and answered by it alone, so posting both at once would race that.
    await post(0, thread.id, "First, through A")
    const frames: Array<LiveFrame> = [await tab.nextOf("message.delta", (frame) => frame.delta === "", 20_000)]
    await post(1, thread.id, "Second, through B")

    for (let replies = 0; replies < 2; ) {
      const frame = await tab.next(() => true, 30_000)
      frames.push(frame)
      if (isReply(frame)) replies++
    }
    // A reply's frames run from its thinking delta to its message.created, never interleaved with another's.
    const replyFrames = frames.filter(
      (frame): frame is FrameOf<"message.delta"> | FrameOf<"message.created"> =>
        frame.type === "message.delta" || isReply(frame)
    )
    const order = replyFrames.map((frame) => (frame.type === "message.delta" ? frame.messageId : frame.message.id))
    const [first, second] = [order[0]!, order.find((id) => id !== order[0])!]
    expect(order).toEqual([...order.filter((id) => id === first), ...order.filter((id) => id === second)])
    expect(museCalls().length - before).toBe(2)
    // The second reply read both messages.
    const stored = await run(owner.api.threads.listMessages({ path: { id: thread.id } }))
    expect(
      stored
        .filter((message) => message.role === "user")
        .map((message) => message.content)
        .sort()
    ).toEqual(["First, through A", "Second, through B"])
    expect(stored.filter((message) => message.role === "assistant").map((message) => message.id)).toEqual([
      first,
      second
    ])
    await tab.close()
  }, 90_000)

  it("streams a reply made on one process to a tab on the other, and a tab joining there mid-reply gets the reply so far", async () => {
    await idle()
    const thread = await museThread()
    const watching = await followOn(1, thread.id)
    const text = words("word", 40)
    answer = () => ({ content: text, chunkDelayMs: 60 })
    const before = museCalls().length
    await post(0, thread.id, "Tell me a long story, A")
    await watching.nextOf("message.delta", (frame) => frame.delta.startsWith("word3"), 20_000)
    const late = await followOn(1, thread.id)
    const frames = await late.upTo(isReply, 30_000)
    const deltas = frames.filter((frame): frame is FrameOf<"message.delta"> => frame.type === "message.delta")
    expect(deltas[0]!.delta.startsWith("word0 word1 word2 word3")).toBe(true)
    expect(deltas.length).toBeGreaterThan(1)
    expect(deltas.map((delta) => delta.delta).join("")).toBe(text)
    expect((frames.at(-1) as FrameOf<"message.created">).message.content).toBe(text)
    expect((await watching.nextOf("message.created", isReply, 30_000)).message.content).toBe(text)
    // Made on A, the process it was posted to.
    expect(museCalls().slice(before).map(callerOf)).toEqual([0])
    await Promise.all([watching.close(), late.close()])
  }, 90_000)

  it("answers the chat bridge's wait with a reply made on the other process", async () => {
    await idle()
    const thread = await museThread()
    const chat: ChatOf = { id: 6001, type: "private", first_name: "Ada" }
    const pairing = await run(owner.api.connections.chatPairing())
    const exchange = async (text: string) => {
      const from = bots.calls.length
      bots.say(botToken, chat, text)
      const sent = await bots.next(
        (call) => call.method === "sendMessage" && call.body.chat_id === chat.id,
        from,
        60_000
      )
      return String(sent.body.text)
    }
    expect(await exchange(`/start ${pairing.code}`)).toMatch(/^Paired\./)
    // Which process polls the bot: the one that makes the reply to a chat message when no other runs.
    answer = (asked) => ({ content: `Chat answer to: ${asked}` })
    const before = museCalls().length
    expect(await exchange("Who polls?")).toBe("Chat answer to: Who polls?")
    const poller = callerOf(museCalls()[before]!)!
    const other = 1 - poller
    // The poller's round has answered the chat but may still hold the thread's lease; a message posted meanwhile is
    // the lease holder's to answer (one round for messages at the same moment), so wait for it to let go.
    await idle()

    // A long reply runs on the other process; the chat's message comes meanwhile and waits for the next round there.
    answer = (asked) =>
      asked === "Keep talking"
        ? { content: words("long", 30), chunkDelayMs: 60 }
        : { content: `After the long one: ${asked}` }
    const tab = await followOn(other, thread.id)
    await post(other, thread.id, "Keep talking")
    await tab.nextOf("message.delta", (frame) => frame.delta.startsWith("long2"), 20_000)
    const from = museCalls().length
    expect(await exchange("And from the chat?")).toBe("After the long one: And from the chat?")
    // Both rounds ran on the other process, one after the other; the poller made no reply of its own.
    expect(
      museCalls()
        .slice(from - 1)
        .map(callerOf)
    ).toEqual([other, other])
    await tab.close()
  }, 120_000)

  it("closes a reply whose process was killed mid-reply on the survivor within seconds, and the thread answers again", async () => {
    await idle()
    const thread = await museThread()
    const onB = await followOn(1, thread.id)
    answer = (asked) =>
      asked === "A very long story, please"
        ? { content: words("tale", 200), chunkDelayMs: 100 }
        : { content: `Here again: ${asked}` }
    const before = museCalls().length
    await post(0, thread.id, "A very long story, please")
    const thinking = await onB.nextOf("message.delta", (frame) => frame.delta === "", 20_000)
    // Past the holder's first renewal (every 2 s), which records the text so far in its lease.
    await onB.nextOf("message.delta", (frame) => frame.delta.startsWith("tale30"), 20_000)
    expect(museCalls().slice(before).map(callerOf)).toEqual([0])
    expect(await processes[0]!.kill()).toBe("SIGKILL")
    const killedAt = Date.now()

    const closed = await onB.nextOf("message.created", (frame) => frame.message.id === thinking.messageId, 45_000)
    const closedMs = Date.now() - killedAt
    console.log(`a killed process's Muse reply closed on the survivor ${closedMs} ms after SIGKILL`)
    expect(closed.message.content).toMatch(/^tale0 tale1 tale2 tale3 tale4 /)
    expect(closed.message.content).toMatch(
      /could not finish this reply: the node's process that was writing it stopped/
    )
    expect(closedMs).toBeLessThan(30_000)
    // The survivor's true state: the reply stored as far as it went, and nothing streaming for a tab that joins now.
    const survivor = browserOn(1)
    expect((await run(survivor.api.threads.listMessages({ path: { id: thread.id } }))).at(-1)).toEqual(closed.message)
    const joining = await followOn(1, thread.id)
    // The model was not asked again for the cut reply; the thread answers the next message.
    expect(museCalls().length - before).toBe(1)
    await post(1, thread.id, "Are you there?")
    const frames = await joining.upTo(isReply, 30_000)
    expect(frames.filter((frame) => frame.type === "message.delta" && frame.messageId === thinking.messageId)).toEqual(
      []
    )
    expect((frames.at(-1) as FrameOf<"message.created">).message.content).toBe("Here again: Are you there?")
    expect(
      museCalls()
        .slice(before + 1)
        .map(callerOf)
    ).toEqual([1])
    await Promise.all([onB.close(), joining.close()])
  }, 120_000)
})
