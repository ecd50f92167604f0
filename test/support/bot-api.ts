/**
 * A loopback server speaking the Telegram Bot API subset the node uses (chat_a): `getMe`,
 * `getUpdates` as a long poll (held open until an update after the offset arrives or the asked
 * timeout passes; an offset confirms every earlier update) and `sendMessage`, for any number of
 * bots, each known by its token. A test scripts what chats say (`say`) and waits on what the node
 * does (`next`): every call is recorded and announced, and a poll the node dropped is announced too.
 * `received` holds every request but the polling ones (`getMe`, `getUpdates`), so a test of
 * sending reads only what was sent.
 */
import { EventEmitter } from "node:events"
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import type { Received } from "./chat-servers.ts"

export interface BotCall {
  readonly token: string
  readonly method: string
  readonly body: Record<string, unknown>
  /** `getUpdates` only: the poll ended because the node hung up, not with an answer. */
  readonly dropped?: boolean
}

export interface ChatOf {
  readonly id: number
  readonly type: "private" | "group" | "channel"
  readonly title?: string
  readonly first_name?: string
}

interface Waiting {
  readonly offset: number
  readonly answer: (updates: ReadonlyArray<unknown>) => void
}

/** A request's body: its JSON, or the text when it is not JSON. */
export const bodyOf = async (request: IncomingMessage): Promise<unknown> => {
  const chunks: Array<Buffer> = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  const raw = Buffer.concat(chunks).toString("utf8")
  try {
    return JSON.parse(raw)
  } catch {
    return raw
  }
}

const botError = (code: number, description: string, parameters?: unknown) => ({
  status: code,
  body: { ok: false, error_code: code, description, ...(parameters === undefined ? {} : { parameters }) }
})

/** `bots`: token → the bot's username. Chats 4242, @adanews (-1001234567890) are known; 999 is flood-limited. */
export const startBotApi = async (bots: Readonly<Record<string, string>>) => {
  const events = new EventEmitter()
  const calls: Array<BotCall> = []
  const received: Array<Received> = []
  const chats = new Map<string, ChatOf>([
    ["4242", { id: 4242, type: "private", first_name: "Ada" }],
    ["@adanews", { id: -1001234567890, type: "channel", title: "Ada News" }]
  ])
  const updates = new Map<string, Array<{ update_id: number } & Record<string, unknown>>>()
  const waiting = new Map<string, Set<Waiting>>()
  /** Long polls held open now, and the most held open at once since `openPolls.reset`, per token. */
  const open = new Map<string, number>()
  const peak = new Map<string, number>()
  const opened = (token: string, by: number) => {
    const now = (open.get(token) ?? 0) + by
    open.set(token, now)
    peak.set(token, Math.max(peak.get(token) ?? 0, now))
  }
  let nextUpdate = 1000
  let nextMessage = 100

  const pending = (token: string, offset: number) =>
    (updates.get(token) ?? []).filter((update) => update.update_id >= offset)

  const record = (call: BotCall) => {
    calls.push(call)
    events.emit("call", call)
  }

  const handle = (
    token: string,
    method: string,
    body: Record<string, unknown>,
    request: IncomingMessage,
    response: ServerResponse
  ) => {
    const reply = (answer: { status: number; body: unknown }) => {
      if (response.writableEnded || response.destroyed) return
      response.writeHead(answer.status, { "content-type": "application/json" })
      response.end(JSON.stringify(answer.body))
    }
    if (!(token in bots)) return reply(botError(401, "Unauthorized"))
    switch (method) {
      case "getMe":
        return reply({
          status: 200,
          body: { ok: true, result: { id: 1, is_bot: true, first_name: bots[token], username: bots[token] } }
        })
      case "getUpdates": {
        const offset = typeof body.offset === "number" ? body.offset : 0
        // An offset confirms the updates before it: they are never sent again.
        updates.set(token, pending(token, offset))
        const ready = pending(token, offset)
        if (ready.length > 0) return reply({ status: 200, body: { ok: true, result: ready } })
        const timeoutMs = (typeof body.timeout === "number" ? body.timeout : 0) * 1000
        const set = waiting.get(token) ?? new Set<Waiting>()
        waiting.set(token, set)
        opened(token, 1)
        const waiter: Waiting = {
          offset,
          answer: (result) => {
            set.delete(waiter)
            opened(token, -1)
            clearTimeout(timer)
            reply({ status: 200, body: { ok: true, result } })
          }
        }
        const timer = setTimeout(() => waiter.answer([]), timeoutMs)
        set.add(waiter)
        response.on("close", () => {
          if (!set.has(waiter)) return
          set.delete(waiter)
          opened(token, -1)
          clearTimeout(timer)
          record({ token, method, body, dropped: true })
        })
        return
      }
      case "sendMessage": {
        if (!String(request.headers["content-type"]).startsWith("application/json"))
          return reply(botError(400, "Bad Request: message text is empty"))
        const chatId = String(body.chat_id ?? "")
        const text = body.text
        if (chatId === "") return reply(botError(400, "Bad Request: chat_id is empty"))
        if (typeof text !== "string" || text === "") return reply(botError(400, "Bad Request: message text is empty"))
        if (text.length > 4096) return reply(botError(400, "Bad Request: message is too long"))
        if (chatId === "999") return reply(botError(429, "Too Many Requests: retry after 7", { retry_after: 7 }))
        const chat = chats.get(chatId)
        if (chat === undefined) return reply(botError(400, "Bad Request: chat not found"))
        nextMessage += 1
        return reply({
          status: 200,
          body: {
            ok: true,
            result: {
              message_id: nextMessage,
              from: { id: 1, is_bot: true, first_name: bots[token], username: bots[token] },
              chat,
              date: Math.floor(Date.now() / 1000),
              text
            }
          }
        })
      }
      default:
        return reply(botError(404, "Not Found"))
    }
  }

  const server: Server = createServer(async (request, response) => {
    const body = await bodyOf(request)
    const match = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(request.url ?? "")
    if (match === null) {
      response.writeHead(404, { "content-type": "application/json" })
      return response.end(JSON.stringify(botError(404, "Not Found").body))
    }
    const [, token = "", method = ""] = match
    const fields = typeof body === "object" && body !== null ? (body as Record<string, unknown>) : {}
    if (method !== "getMe" && method !== "getUpdates")
      received.push({ method: request.method ?? "", path: request.url ?? "", headers: request.headers, body })
    record({ token, method, body: fields })
    handle(token, method, fields, request, response)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))

  /** The first call (already made, or the next) that `matches`. */
  const next = (matches: (call: BotCall) => boolean, after = 0, timeoutMs = 20_000) =>
    new Promise<BotCall>((resolve, reject) => {
      const seen = calls.slice(after).find(matches)
      if (seen !== undefined) return resolve(seen)
      const timer = setTimeout(() => {
        events.off("call", listener)
        reject(
          new Error(
            `no matching Bot API call within ${timeoutMs} ms; calls: ${JSON.stringify(calls.slice(after).map((call) => [call.method, call.dropped ?? false]))}`
          )
        )
      }, timeoutMs)
      const listener = (call: BotCall) => {
        if (!matches(call)) return
        clearTimeout(timer)
        events.off("call", listener)
        resolve(call)
      }
      events.on("call", listener)
    })

  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    received,
    next,
    /** The most long polls of `token` held open at once since the last `reset` (one poller holds one at a time). */
    openPolls: {
      peak: (token: string) => peak.get(token) ?? 0,
      reset: (token: string) => peak.set(token, open.get(token) ?? 0)
    },
    /** The messages the bot `token` sent to `chatId`, in order. */
    sentTo: (token: string, chatId: number) =>
      calls
        .filter(
          (call) =>
            call.token === token && call.method === "sendMessage" && String(call.body.chat_id) === String(chatId)
        )
        .map((call) => String(call.body.text)),
    /** A chat says `text` to the bot `token`: an update, answered to a poll waiting for it. */
    say: (token: string, chat: ChatOf, text: string) => {
      chats.set(String(chat.id), chat)
      nextUpdate += 1
      const update = {
        update_id: nextUpdate,
        message: {
          message_id: nextUpdate,
          date: Math.floor(Date.now() / 1000),
          chat,
          from: { id: chat.id, is_bot: false, first_name: chat.first_name ?? "Someone" },
          text
        }
      }
      updates.set(token, [...(updates.get(token) ?? []), update])
      for (const waiter of [...(waiting.get(token) ?? [])]) waiter.answer(pending(token, waiter.offset))
      return update.update_id
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}

export type BotApi = Awaited<ReturnType<typeof startBotApi>>
