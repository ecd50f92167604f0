/**
 * chat_a.send (Telegram Bot API) and chat_b.send (Slack Web API) over a real node and loopback
 * servers that speak those protocols (issue 11): what is sent and how, the services' refusals in
 * plain words without the token, the approval gate, and a `sent` twin activity.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Skills } from "../../kernel/extensions/skills.ts"
import { startSlack, startTelegram } from "../support/chat-servers.ts"
import { at } from "../support/json.ts"
import { LiveTab } from "../support/live.ts"
import { type Client, registerOwner, run, startNode, type Registered, type TestNode } from "../support/node.ts"

const botToken = "123456:AAF-test_bot-token"
const slackToken = "xoxb-1-test-slack-token"
let telegram: Awaited<ReturnType<typeof startTelegram>>
let slack: Awaited<ReturnType<typeof startSlack>>
let node: TestNode
let owner: Registered

beforeAll(async () => {
  telegram = await startTelegram(botToken)
  slack = await startSlack(slackToken)
  node = await startNode({
    chatAApiUrl: telegram.url,
    chatABotToken: Option.some(Redacted.make(botToken)),
    chatBApiUrl: `${slack.url}/`,
    chatBToken: Option.some(Redacted.make(slackToken))
  })
  owner = await registerOwner(node)
})
afterAll(async () => {
  await node.close()
  await telegram.close()
  await slack.close()
})

const invoke = (client: Client, name: string, input: Record<string, unknown>) =>
  run(client.api.studioSkills.invokeSkill({ payload: { name, input } }))

describe("chat_a.send (Telegram Bot API)", () => {
  it("posts sendMessage with the bot token in the path, answers the message id and records a sent activity", async () => {
    const tab = await LiveTab.open(node, owner.client)
    const answer = await invoke(owner.client, "chat_a.send", { chatId: 4242, text: "The build is green." })
    expect(answer, JSON.stringify(answer)).toMatchObject({
      ok: true,
      output: { sent: true, chatId: "4242", messageId: expect.any(Number), via: "node" }
    })
    expect(telegram.received.at(-1)).toMatchObject({
      method: "POST",
      path: `/bot${botToken}/sendMessage`,
      headers: { "content-type": "application/json; charset=utf-8" },
      body: { chat_id: 4242, text: "The build is green." }
    })
    expect((await tab.nextOf("twin.activity", (frame) => frame.kind === "sent")).summary).toBe(
      "Sent a chat_a message to 4242"
    )
    tab.close()

    const channel = await invoke(owner.client, "chat_a.send", { chatId: "@adanews", text: "Out now." })
    expect(channel).toMatchObject({ ok: true, output: { chatId: "-1001234567890" } })
    expect(telegram.received.at(-1)?.body).toEqual({ chat_id: "@adanews", text: "Out now." })
  })

  it("reports the Bot API's refusals in its own words, never the token", async () => {
    const missing = await invoke(owner.client, "chat_a.send", { chatId: "77", text: "hello" })
    expect(missing).toEqual({
      ok: false,
      error: "chat_a.send: chat_a (Telegram Bot API) refused the message: Bad Request: chat not found (400).",
      durationMs: expect.any(Number)
    })
    const flooded = await invoke(owner.client, "chat_a.send", { chatId: 999, text: "hello" })
    expect(flooded).toMatchObject({
      ok: false,
      error: expect.stringContaining("Too Many Requests: retry after 7 (429); retry after 7 s")
    })
    expect(JSON.stringify([missing, flooded])).not.toContain(botToken)
  })

  it("refuses input that is not a chat message, sending nothing", async () => {
    const before = telegram.received.length
    for (const [input, words] of [
      [{ chatId: "ada lovelace", text: "x" }, "chat id"],
      [{ chatId: 4242, text: " " }, "some text"],
      [{ chatId: 4242, text: "x".repeat(4097) }, "4096"],
      [{ chatId: 4242 }, "text"]
    ] as const) {
      expect(await invoke(owner.client, "chat_a.send", input), JSON.stringify(input).slice(0, 60)).toMatchObject({
        ok: false,
        error: expect.stringContaining(words)
      })
    }
    expect(telegram.received.length).toBe(before)
  })
})

describe("chat_b.send (Slack Web API)", () => {
  it("posts chat.postMessage with the bearer token and a JSON body, answers the channel and ts and records a sent activity", async () => {
    const tab = await LiveTab.open(node, owner.client)
    const answer = await invoke(owner.client, "chat_b.send", { channel: "#general", text: "Standup in five." })
    expect(answer, JSON.stringify(answer)).toMatchObject({
      ok: true,
      output: { sent: true, channel: "C0GENERAL0", ts: expect.stringMatching(/^\d+\.\d{6}$/), via: "node" }
    })
    expect(slack.received.at(-1)).toMatchObject({
      method: "POST",
      path: "/chat.postMessage",
      headers: { authorization: `Bearer ${slackToken}`, "content-type": "application/json; charset=utf-8" },
      body: { channel: "#general", text: "Standup in five." }
    })
    expect((await tab.nextOf("twin.activity", (frame) => frame.kind === "sent")).summary).toBe(
      "Sent a chat_b message to C0GENERAL0"
    )
    tab.close()
  })

  it("reads a 200 with ok: false as the refusal it is, and a 429 as a rate limit", async () => {
    const missing = await invoke(owner.client, "chat_b.send", { channel: "C0NOWHERE", text: "hello" })
    expect(missing).toMatchObject({
      ok: false,
      error: "chat_b.send: chat_b (Slack Web API) refused the message: channel_not_found."
    })
    const limited = await invoke(owner.client, "chat_b.send", { channel: "C0RATELIMIT", text: "hello" })
    expect(limited).toMatchObject({
      ok: false,
      error: expect.stringContaining("rate limiting this token; retry after 30 s")
    })
    expect(JSON.stringify([missing, limited])).not.toContain(slackToken)
  })

  it("refuses input that is not a channel message, sending nothing", async () => {
    const before = slack.received.length
    for (const [input, words] of [
      [{ channel: "general chat", text: "x" }, "a channel id"],
      [{ channel: "C0123456789", text: "" }, "some text"],
      [{ channel: "C0123456789", text: "x", as_user: true }, "as_user"]
    ] as const) {
      expect(await invoke(owner.client, "chat_b.send", input), JSON.stringify(input)).toMatchObject({
        ok: false,
        error: expect.stringContaining(words)
      })
    }
    expect(slack.received.length).toBe(before)
  })
})

describe("the chat skills act on the world", () => {
  it("waits for the owner's approval when an agent calls, sending nothing until 'Do it'", async () => {
    const before = { telegram: telegram.received.length, slack: slack.received.length }
    for (const [name, input] of [
      ["chat_a.send", { chatId: 4242, text: "agent says hi" }],
      ["chat_b.send", { channel: "C0123456789", text: "agent says hi" }]
    ] as const) {
      const outcome = await node.runtime.runPromise(
        Effect.flatMap(Skills, (skills) => skills.invoke({ name, input, beingId: owner.being.id, approved: false }))
      )
      expect(outcome, name).toMatchObject({ ok: false, approval: { status: "waiting", delivered: true } })
    }
    expect({ telegram: telegram.received.length, slack: slack.received.length }).toEqual(before)

    const open = await run(
      owner.client.api.desktop.listSignals({ urlParams: { status: "open", limit: 100, offset: 0 } })
    )
    const decision = open.find((signal) => at(signal.action, "skill") === "chat_b.send")!
    expect(decision.body).toContain("posts messages other people read on chat_b")
    const answered = await run(
      owner.client.api.desktop.answerSignal({ path: { id: decision.id }, payload: { optionId: "do-it" } })
    )
    expect(at(answered, "actionResult", "output", "output")).toMatchObject({ sent: true, channel: "C0123456789" })
    expect(slack.received.at(-1)?.body).toEqual({ channel: "C0123456789", text: "agent says hi" })
    expect(telegram.received.length).toBe(before.telegram)
  })

  it("lists both with their schemas as world-acting skills of their own families", async () => {
    const skills = await run(owner.client.api.studioSkills.listSkills())
    expect(skills.find((skill) => skill.name === "chat_a.send")).toMatchObject({
      family: "chat_a",
      worldActing: true,
      pluginId: "@svc/chat-a"
    })
    const chatB = skills.find((skill) => skill.name === "chat_b.send")
    expect(chatB).toMatchObject({ family: "chat_b", worldActing: true, pluginId: "@svc/chat-b" })
    expect(at(chatB?.inputSchema, "required")).toEqual(["channel", "text"])
    expect(at(chatB?.outputSchema, "required")).toEqual(["sent", "channel", "ts", "via"])
  })
})
