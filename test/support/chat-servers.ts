/**
 * Loopback servers that speak the two chat services' protocols as they are documented, for the
 * chat skills' tests: the Telegram Bot API's sendMessage (chat_a) and the Slack Web API's
 * chat.postMessage (chat_b): their paths, auth, bodies, and error shapes. Every request is
 * recorded, so a test can assert exactly what the node sent, or that it sent nothing.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"

export interface Received {
  readonly method: string
  readonly path: string
  readonly headers: IncomingMessage["headers"]
  readonly body: unknown
}

type Handler = (request: Received) => { readonly status: number; readonly body: unknown; readonly headers?: Record<string, string> }

const listen = async (handle: Handler) => {
  const received: Array<Received> = []
  const server: Server = createServer(async (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Array<Buffer> = []
    for await (const chunk of request) chunks.push(chunk as Buffer)
    const raw = Buffer.concat(chunks).toString("utf8")
    let body: unknown = raw
    try {
      body = JSON.parse(raw)
    } catch {}
    const seen: Received = { method: request.method ?? "", path: request.url ?? "", headers: request.headers, body }
    received.push(seen)
    const answer = handle(seen)
    response.writeHead(answer.status, { "content-type": "application/json", ...answer.headers })
    response.end(JSON.stringify(answer.body))
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

const at = (value: unknown, key: string): unknown => (typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined)

/** The Bot API's error answer: the HTTP status repeated as error_code. */
const botError = (code: number, description: string, parameters?: unknown) => ({
  status: code,
  body: { ok: false, error_code: code, description, ...(parameters === undefined ? {} : { parameters }) }
})

/**
 * A Telegram Bot API server for one bot token. Chats it knows: 4242 (a private chat) and
 * @adanews (a channel, id -1001234567890); 999 answers 429 as a flood-limited chat does.
 */
export const startTelegram = async (token: string) => {
  let nextId = 100
  const chats: Record<string, { id: number; type: string }> = {
    "4242": { id: 4242, type: "private" },
    "@adanews": { id: -1001234567890, type: "channel" }
  }
  return listen((request) => {
    const match = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(request.path)
    if (match === null) return botError(404, "Not Found")
    if (match[1] !== token) return botError(401, "Unauthorized")
    if (match[2] !== "sendMessage") return botError(404, "Not Found")
    if (!String(request.headers["content-type"]).startsWith("application/json")) return botError(400, "Bad Request: message text is empty")
    const chatId = String(at(request.body, "chat_id") ?? "")
    const text = at(request.body, "text")
    if (chatId === "") return botError(400, "Bad Request: chat_id is empty")
    if (typeof text !== "string" || text === "") return botError(400, "Bad Request: message text is empty")
    if (chatId === "999") return botError(429, "Too Many Requests: retry after 7", { retry_after: 7 })
    const chat = chats[chatId]
    if (chat === undefined) return botError(400, "Bad Request: chat not found")
    nextId += 1
    return {
      status: 200,
      body: {
        ok: true,
        result: {
          message_id: nextId,
          from: { id: 123456, is_bot: true, first_name: "Node", username: "node_bot" },
          chat,
          date: Math.floor(Date.now() / 1000),
          text
        }
      }
    }
  })
}

/**
 * A Slack Web API server for one token. Channels it knows: C0123456789 and #general (C0GENERAL0);
 * C0RATELIMIT answers 429 with Retry-After as a rate-limited method does. Refusals are 200 with
 * `ok: false`, as Slack answers them.
 */
export const startSlack = async (token: string) => {
  let counter = 0
  const channels: Record<string, string> = { C0123456789: "C0123456789", "#general": "C0GENERAL0", general: "C0GENERAL0" }
  const refuse = (error: string) => ({ status: 200, body: { ok: false, error } })
  return listen((request) => {
    if (request.path !== "/chat.postMessage") return { status: 404, body: { ok: false, error: "unknown_method" } }
    const auth = request.headers.authorization
    if (auth === undefined) return refuse("not_authed")
    if (auth !== `Bearer ${token}`) return refuse("invalid_auth")
    if (!String(request.headers["content-type"]).startsWith("application/json")) return refuse("invalid_form_data")
    const channel = String(at(request.body, "channel") ?? "")
    const text = at(request.body, "text")
    if (channel === "C0RATELIMIT") return { status: 429, headers: { "retry-after": "30" }, body: { ok: false, error: "ratelimited" } }
    const id = channels[channel]
    if (id === undefined) return refuse("channel_not_found")
    if (typeof text !== "string" || text === "") return refuse("no_text")
    counter += 1
    const ts = `1767225600.${String(counter).padStart(6, "0")}`
    return { status: 200, body: { ok: true, channel: id, ts, message: { type: "message", user: "U0NODEBOT", text, ts } } }
  })
}
