/**
 * chat_a is the Telegram Bot API: `POST {CHAT_A_API_URL}/bot{token}/sendMessage` with
 * `{ chat_id, text }`, answered `{ ok: true, result: Message }` or, with a 4xx status,
 * `{ ok: false, error_code, description }` (a 429 adds `parameters.retry_after`).
 */
import { field, postJson } from "./chat-post.ts"

const service = "chat_a (Telegram Bot API)"

export const sendTelegram = async (
  base: string,
  token: string,
  message: { readonly chatId: string; readonly text: string },
  signal?: AbortSignal
): Promise<{ readonly chatId: string; readonly messageId: number }> => {
  const chatId = /^-?\d+$/.test(message.chatId) ? Number(message.chatId) : message.chatId
  const answer = await postJson(
    service,
    `${base.replace(/\/+$/, "")}/bot${token}/sendMessage`,
    { chat_id: chatId, text: message.text },
    { signal }
  )
  if (field(answer.body, "ok") === true) {
    const result = field(answer.body, "result")
    const messageId = field(result, "message_id")
    const chat = field(field(result, "chat"), "id")
    if (typeof messageId !== "number") throw new Error(`${service} answered ok without a message id.`)
    return { chatId: chat === undefined ? message.chatId : String(chat), messageId }
  }
  const description = field(answer.body, "description")
  const retryAfter = field(field(answer.body, "parameters"), "retry_after")
  if (typeof description !== "string") throw new Error(`${service} answered ${answer.status} without a Bot API answer.`)
  const code = field(answer.body, "error_code") ?? answer.status
  throw new Error(
    `${service} refused the message: ${description} (${String(code)})${typeof retryAfter === "number" ? `; retry after ${retryAfter} s` : ""}.`
  )
}
