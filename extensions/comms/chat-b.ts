/**
 * chat_b is the Slack Web API: `POST {CHAT_B_API_URL}/chat.postMessage` with a bearer token and
 * `{ channel, text }`. Slack answers 200 even when it refuses, with `{ ok: false, error }`; only
 * rate limits come as 429 with `Retry-After`.
 */
import { field, postJson } from "./chat-post.ts"

const service = "chat_b (Slack Web API)"

export const sendSlack = async (
  base: string,
  token: string,
  message: { readonly channel: string; readonly text: string },
  signal?: AbortSignal
): Promise<{ readonly channel: string; readonly ts: string }> => {
  const answer = await postJson(
    service,
    `${base.replace(/\/+$/, "")}/chat.postMessage`,
    { channel: message.channel, text: message.text },
    {
      headers: { authorization: `Bearer ${token}` },
      signal
    }
  )
  if (answer.status === 429) {
    throw new Error(
      `${service} is rate limiting this token; retry after ${answer.headers.get("retry-after") ?? "a while"} s.`
    )
  }
  if (field(answer.body, "ok") === true) {
    const ts = field(answer.body, "ts")
    const channel = field(answer.body, "channel")
    if (typeof ts !== "string") throw new Error(`${service} answered ok without a message timestamp.`)
    return { channel: typeof channel === "string" ? channel : message.channel, ts }
  }
  const error = field(answer.body, "error")
  if (typeof error !== "string") throw new Error(`${service} answered ${answer.status} without a Web API answer.`)
  throw new Error(`${service} refused the message: ${error}.`)
}
