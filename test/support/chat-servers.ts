/**
 * Loopback servers that speak the two chat services' protocols as they are documented, for the
 * chat skills' tests: the Telegram Bot API (chat_a, bot-api.ts) and the Slack Web API's
 * chat.postMessage (chat_b): their paths, auth, bodies, and error shapes. Every request is
 * recorded, so a test can assert exactly what the node sent, or that it sent nothing.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { bodyOf, startBotApi } from "./bot-api.ts"

export interface Received {
  readonly method: string
  readonly path: string
  readonly headers: IncomingMessage["headers"]
  readonly body: unknown
}

type Handler = (request: Received) => {
  readonly status: number
  readonly body: unknown
  readonly headers?: Record<string, string>
}

const listen = async (handle: Handler) => {
  const received: Array<Received> = []
  const server: Server = createServer(async (request: IncomingMessage, response: ServerResponse) => {
    const body = await bodyOf(request)
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

const at = (value: unknown, key: string): unknown =>
  typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined

/**
 * A Telegram Bot API server for one bot token (bot-api.ts). Chats it knows: 4242 (a private
 * chat) and @adanews (a channel, id -1001234567890); 999 answers 429 as a flood-limited chat does.
 */
export const startTelegram = (token: string) => startBotApi({ [token]: "node_bot" })

/**
 * A Slack Web API server for one token. Channels it knows: C0123456789 and #general (C0GENERAL0);
 * C0RATELIMIT answers 429 with Retry-After as a rate-limited method does. Refusals are 200 with
 * `ok: false`, as Slack answers them.
 */
export const startSlack = async (token: string) => {
  let counter = 0
  const channels: Record<string, string> = {
    C0123456789: "C0123456789",
    "#general": "C0GENERAL0",
    general: "C0GENERAL0"
  }
  const refuse = (error: string) => ({ status: 200, body: { ok: false, error } })
  return listen((request) => {
    if (request.path !== "/chat.postMessage") return { status: 404, body: { ok: false, error: "unknown_method" } }
    const auth = request.headers.authorization
    if (auth === undefined) return refuse("not_authed")
    if (auth !== `Bearer ${token}`) return refuse("invalid_auth")
    if (!String(request.headers["content-type"]).startsWith("application/json")) return refuse("invalid_form_data")
    const channel = String(at(request.body, "channel") ?? "")
    const text = at(request.body, "text")
    if (channel === "C0RATELIMIT")
      return { status: 429, headers: { "retry-after": "30" }, body: { ok: false, error: "ratelimited" } }
    const id = channels[channel]
    if (id === undefined) return refuse("channel_not_found")
    if (typeof text !== "string" || text === "") return refuse("no_text")
    counter += 1
    const ts = `1767225600.${String(counter).padStart(6, "0")}`
    return {
      status: 200,
      body: { ok: true, channel: id, ts, message: { type: "message", user: "U0NODEBOT", text, ts } }
    }
  })
}
