/**
 * The chat_a bridge over a real node, a loopback Bot API server (getMe, getUpdates long polling,
 * sendMessage) and the scripted model server: a chat pairs by `/start CODE` or the bare code, its
 * messages reach the being's Muse and the reply comes back (a long one in pieces), an unpaired
 * chat is told to pair, a node without a model says the Muse is asleep, a being's own bot is
 * preferred to the node's and deleting it stops its poller (unless it is the node's token), two
 * beings on the node's bot each have their own chat, and no token is in any answer or log line.
 */
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { keepConsoleLines } from "../support/console-lines.ts"
import { startBotApi, type BotApi, type ChatOf } from "../support/bot-api.ts"
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

const nodeToken = "111:node-bot-token"
const adaToken = "777:ada-own-bot-token"
const tokens = [nodeToken, adaToken]
const paired = /^Paired\./
const notPaired = /not paired yet.*pairing code/

let logged: Array<string> = []
const answers: Array<unknown> = []
let bots: BotApi
let models: OpenAiServer
let node: TestNode
let owner: Registered
let member: Registered

beforeAll(async () => {
  logged = keepConsoleLines()
  bots = await startBotApi({ [nodeToken]: "node_bot", [adaToken]: "ada_bot" })
  models = await startOpenAiServer()
  node = await startNode({
    ...noModelSettings,
    llmTiers: tierSettings({ standard: { baseUrl: models.baseUrl, model: "standard-model" } }),
    encryptionKey: Option.some(Redacted.make("a long passphrase for the tests")),
    chatAApiUrl: bots.url,
    chatABotToken: Option.some(Redacted.make(nodeToken))
  })
  owner = await registerOwner(node)
  member = await registerMember(node, owner.client)
})
afterAll(async () => {
  await node?.close()
  await bots?.close()
  await models?.close()
  vi.restoreAllMocks()
})

const seen = <A>(answer: A): A => {
  answers.push(answer)
  return answer
}
const pairingOf = async (who: Registered) => seen(await run(who.client.api.connections.chatPairing()))
const chatStatus = async (who: Registered) =>
  seen((await run(who.client.api.twin.status())).providers.find((provider) => provider.provider === "chat_a"))

/** A chat says `text` to the bot and the bot's next message to that chat is awaited. */
const exchange = async (token: string, chat: ChatOf, text: string) => {
  const from = bots.calls.length
  bots.say(token, chat, text)
  const sent = await bots.next(
    (call) => call.token === token && call.method === "sendMessage" && call.body.chat_id === chat.id,
    from
  )
  return String(sent.body.text)
}

const museMessages = async (who: Registered) => {
  const [thread] = await run(who.client.api.threads.listThreads({ urlParams: { kind: "muse", ...firstPage } }))
  return (await run(who.client.api.threads.listMessages({ path: { id: thread!.id } }))).map((message) => ({
    role: message.role,
    content: message.content
  }))
}

const chat = (id: number, first_name: string): ChatOf => ({ id, type: "private", first_name })

describe("pairing a chat", () => {
  it("gives a code with the bot's name and deep link; /start CODE pairs the chat, the bot confirms, status says connected", async () => {
    expect(await chatStatus(member)).toMatchObject({
      configured: true,
      connected: false,
      hint: expect.stringContaining("pairing code")
    })
    expect(await run(member.client.api.twin.env())).toMatchObject({ telegram: true })
    const pending = await pairingOf(member)
    expect(pending).toEqual({
      configured: true,
      paired: false,
      code: expect.stringMatching(/^[A-HJ-NP-Z2-9]{6}$/),
      expiresAt: expect.any(String),
      botUsername: "node_bot",
      deepLink: `https://t.me/node_bot?start=${pending.code}`,
      chatTitle: null
    })
    expect(Date.parse(pending.expiresAt!)).toBeGreaterThan(Date.now())
    // Asked again, the same code: it is kept on the pending connection until paired.
    expect((await pairingOf(member)).code).toBe(pending.code)
    expect(seen(await run(member.client.api.connections.list()))).toEqual([
      expect.objectContaining({ provider: "chat_a", status: "pending", meta: {} })
    ])

    expect(await exchange(nodeToken, chat(5001, "Grace"), `/start ${pending.code}`)).toMatch(paired)
    expect(await pairingOf(member)).toEqual({
      configured: true,
      paired: true,
      code: null,
      expiresAt: null,
      botUsername: "node_bot",
      deepLink: "https://t.me/node_bot",
      chatTitle: "Grace"
    })
    expect(await chatStatus(member)).toMatchObject({ configured: true, connected: true, hint: null })
    expect(seen(await run(member.client.api.connections.list()))).toEqual([
      expect.objectContaining({ provider: "chat_a", status: "connected", meta: { chatTitle: "Grace" } })
    ])
    // A spent code pairs nothing more.
    expect(await exchange(nodeToken, chat(5009, "Mallory"), pending.code!)).toMatch(notPaired)
  })

  it("pairs by the bare code too, and two beings on the node's bot each talk from their own chat", async () => {
    const code = (await pairingOf(owner)).code!
    expect(await exchange(nodeToken, chat(5002, "Ada"), code.toLowerCase())).toMatch(paired)
    models.script("chat", { content: "Hello Ada, from your Muse." })
    expect(await exchange(nodeToken, chat(5002, "Ada"), "Who am I talking to?")).toBe("Hello Ada, from your Muse.")
    expect((await museMessages(owner)).slice(-2)).toEqual([
      { role: "user", content: "Who am I talking to?" },
      { role: "assistant", content: "Hello Ada, from your Muse." }
    ])
    expect((await museMessages(member)).some((message) => message.content === "Who am I talking to?")).toBe(false)
  })

  it("answers an unpaired chat with a request for its code, and does nothing else", async () => {
    const before = {
      model: models.requests.length,
      activity: (await run(member.client.api.twin.listActivity({ urlParams: { offset: 0 } }))).length
    }
    expect(await exchange(nodeToken, chat(5003, "Stranger"), "hello?")).toMatch(notPaired)
    expect(await exchange(nodeToken, chat(5003, "Stranger"), "/start")).toMatch(notPaired)
    expect(await exchange(nodeToken, chat(5003, "Stranger"), "/start ZZZZZZ")).toMatch(notPaired)
    expect(models.requests.length).toBe(before.model)
    expect((await run(member.client.api.twin.listActivity({ urlParams: { offset: 0 } }))).length).toBe(before.activity)
    expect(bots.sentTo(nodeToken, 5003)).toHaveLength(3)
  })
})

describe("talking to the Muse from a paired chat", () => {
  it("appends the message to the muse thread, sends the reply back, and records a thought and a sent activity", async () => {
    models.script("chat", { content: "Your recital is on Friday." })
    const queued = (await run(member.client.api.twin.getLearning())).queued
    expect(await exchange(nodeToken, chat(5001, "Grace"), "When is my recital?")).toBe("Your recital is on Friday.")
    // The being's own words wait for the learning loop (no cheap tier here, so they stay queued); the reply does not.
    expect((await run(member.client.api.twin.getLearning())).queued).toBe(queued + 1)
    expect((await museMessages(member)).slice(-2)).toEqual([
      { role: "user", content: "When is my recital?" },
      { role: "assistant", content: "Your recital is on Friday." }
    ])
    const activity = seen(await run(member.client.api.twin.listActivity({ urlParams: { offset: 0 } })))
    expect(activity.slice(0, 2).map((entry) => [entry.kind, entry.summary])).toEqual([
      ["sent", "Sent your Muse's reply to Grace on chat_a"],
      ["thought", "Told your Muse through chat_a (Grace)"]
    ])
  })

  it("sends a long reply in pieces of at most about 3,900 characters, in order", async () => {
    const paragraphs = Array.from({ length: 12 }, (_, index) => `Paragraph ${index + 1}: ${"la ".repeat(250).trim()}`)
    const long = paragraphs.join("\n\n")
    models.script("chat", { content: long })
    const from = bots.calls.length
    bots.say(nodeToken, chat(5001, "Grace"), "Tell me everything.")
    await bots.next(
      (call) =>
        call.method === "sendMessage" &&
        call.body.chat_id === 5001 &&
        String(call.body.text).startsWith("Paragraph 1:"),
      from
    )
    await bots.next(
      (call) =>
        call.method === "sendMessage" &&
        call.body.chat_id === 5001 &&
        String(call.body.text).endsWith(paragraphs.at(-1)!),
      from
    )
    const pieces = bots.calls
      .slice(from)
      .filter((call) => call.method === "sendMessage" && call.body.chat_id === 5001)
      .map((call) => String(call.body.text))
    expect(pieces.length).toBe(Math.ceil(long.length / 3_900))
    expect(pieces.every((piece) => piece.length <= 3_900)).toBe(true)
    expect(pieces.join("\n\n")).toBe(long)
  })
})

describe("a being's own bot", () => {
  it("is preferred to the node's: its poller starts when the token is saved, pairing and replies go through it", async () => {
    const from = bots.calls.length
    const connection = seen(
      await run(owner.client.api.connections.create({ payload: { provider: "chat_a", config: { token: adaToken } } }))
    ).id
    await bots.next((call) => call.token === adaToken && call.method === "getUpdates", from)
    // The owner's chat paired through the node's bot is not the owner's any more: the new bot pairs afresh.
    expect(await exchange(nodeToken, chat(5002, "Ada"), "still there?")).toMatch(notPaired)
    const pending = await pairingOf(owner)
    expect(pending).toMatchObject({
      configured: true,
      paired: false,
      botUsername: "ada_bot",
      deepLink: `https://t.me/ada_bot?start=${pending.code}`
    })
    // Sent to the node's bot, the owner's code pairs nothing: it is for the owner's own bot.
    expect(await exchange(nodeToken, chat(5004, "Ada"), pending.code!)).toMatch(notPaired)
    expect(await exchange(adaToken, chat(5004, "Ada"), `/start ${pending.code}`)).toMatch(paired)
    models.script("chat", { content: "Through your own bot." })
    expect(await exchange(adaToken, chat(5004, "Ada"), "Which bot is this?")).toBe("Through your own bot.")
    expect(bots.sentTo(nodeToken, 5004)).toHaveLength(1)

    // Deleting the connection stops its poller: its long poll is dropped, and no other follows.
    const dropped = bots.calls.length
    await run(owner.client.api.connections.remove({ path: { id: connection } }))
    await bots.next((call) => call.token === adaToken && call.method === "getUpdates" && call.dropped === true, dropped)
    expect(await exchange(nodeToken, chat(5003, "Stranger"), "anyone?")).toMatch(notPaired)
    expect(bots.calls.slice(dropped).filter((call) => call.token === adaToken && call.dropped !== true)).toEqual([])
    expect(await chatStatus(owner)).toMatchObject({ configured: true, connected: false, connectionId: null })
  })

  it("keeps the poller of a deleted connection whose token is the node's", async () => {
    const third = await registerMember(node, owner.client)
    const connection = (
      await run(third.client.api.connections.create({ payload: { provider: "chat_a", config: { token: nodeToken } } }))
    ).id
    const code = (await pairingOf(third)).code!
    expect(await exchange(nodeToken, chat(5005, "Third"), code)).toMatch(paired)
    const from = bots.calls.length
    await run(third.client.api.connections.remove({ path: { id: connection } }))
    expect(await exchange(nodeToken, chat(5003, "Stranger"), "still polling?")).toMatch(notPaired)
    expect(bots.calls.slice(from).some((call) => call.token === nodeToken && call.dropped === true)).toBe(false)
    // The pairing went with the connection.
    expect(await exchange(nodeToken, chat(5005, "Third"), "hello?")).toMatch(notPaired)
  })
})

describe("secrets", () => {
  it("never puts a token in an answer or a log line", () => {
    const text = JSON.stringify(answers) + logged.join("\n")
    expect(logged.some((line) => line.includes("chat_a poller for bot"))).toBe(true)
    for (const token of tokens) {
      expect(text).not.toContain(token)
      expect(text).not.toContain(token.split(":")[1])
    }
  })
})

describe("a node without a model", () => {
  it("sends the Muse's own asleep message", async () => {
    const asleep = await startNode({
      ...noModelSettings,
      chatAApiUrl: bots.url,
      chatABotToken: Option.some(Redacted.make(adaToken))
    })
    try {
      const who = await registerOwner(asleep)
      const code = (await run(who.client.api.connections.chatPairing())).code!
      expect(await exchange(adaToken, chat(6001, "Sleepy"), `/start ${code}`)).toMatch(paired)
      expect(await exchange(adaToken, chat(6001, "Sleepy"), "Are you there?")).toMatch(/is asleep: no model is bound/)
    } finally {
      await asleep.close()
    }
  })
})
