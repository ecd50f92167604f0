/**
 * The three Bot API methods the chat bridge speaks (chat_a is the Telegram Bot API):
 * `getMe`, `getUpdates` (long polling with an offset) and `sendMessage`, each a JSON POST to
 * `{CHAT_A_API_URL}/bot{token}/{method}`, answered `{ ok: true, result }` or
 * `{ ok: false, error_code, description, parameters? }`. The token is in the path, so a failure
 * names the host only, never the URL. Interrupting a call aborts its request.
 */
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import { spanNamed } from "../../../kernel/spans.ts"

/** Why a call did not succeed, in words without the token; `retryAfter` (s) when the API said to wait. */
export class BotApiError extends Data.TaggedError("BotApiError")<{
  readonly message: string
  readonly retryAfter: number | null
}> {}

const Chat = Schema.Struct({
  id: Schema.Number,
  type: Schema.String,
  title: Schema.optional(Schema.String),
  username: Schema.optional(Schema.String),
  first_name: Schema.optional(Schema.String),
  last_name: Schema.optional(Schema.String)
})

export const Update = Schema.Struct({
  update_id: Schema.Int,
  message: Schema.optional(Schema.Struct({ message_id: Schema.Int, chat: Chat, text: Schema.optional(Schema.String) }))
})
export type Update = typeof Update.Type
export type BotChat = typeof Chat.Type

const Answer = Schema.Union(
  Schema.Struct({ ok: Schema.Literal(true), result: Schema.Unknown }),
  Schema.Struct({
    ok: Schema.Literal(false),
    description: Schema.optionalWith(Schema.String, { default: () => "no description" }),
    error_code: Schema.optional(Schema.Number),
    parameters: Schema.optional(Schema.Struct({ retry_after: Schema.optional(Schema.Number) }))
  })
)

const Me = Schema.Struct({ username: Schema.String })
const Sent = Schema.Struct({ message_id: Schema.Int })

const service = "chat_a (Telegram Bot API)"
/** A send or getMe that takes longer than this is a failure; a long poll gets its own timeout on top. */
const callTimeoutMs = 15_000

const call = <A, I>(
  base: string,
  token: Redacted.Redacted<string>,
  method: string,
  body: unknown,
  result: Schema.Schema<A, I>,
  timeoutMs = callTimeoutMs
) => {
  const url = `${base.replace(/\/+$/, "")}/bot${Redacted.value(token)}/${method}`
  const host = new URL(base).host
  const failed = (message: string, retryAfter: number | null = null) => new BotApiError({ message, retryAfter })
  return Effect.tryPromise({
    try: async (signal) => {
      const response = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json; charset=utf-8", accept: "application/json" },
        body: JSON.stringify(body),
        redirect: "error",
        signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)])
      })
      return { status: response.status, text: await response.text() }
    },
    catch: (error) =>
      failed(
        error instanceof Error && error.name === "TimeoutError"
          ? `${service} at ${host} did not answer within ${timeoutMs / 1000} seconds`
          : `could not reach ${service} at ${host}`
      )
  }).pipe(
    Effect.flatMap(({ status, text }) =>
      Effect.try({
        try: () => JSON.parse(text) as unknown,
        catch: () => failed(`${service} at ${host} answered ${status} without a Bot API answer`)
      })
    ),
    Effect.flatMap((json) =>
      Effect.mapError(Schema.decodeUnknown(Answer)(json), () =>
        failed(`${service} at ${host} answered without a Bot API answer`)
      )
    ),
    Effect.flatMap((answer) =>
      answer.ok
        ? Effect.mapError(Schema.decodeUnknown(result)(answer.result), () =>
            failed(`${service} answered ${method} with an unexpected result`)
          )
        : Effect.fail(
            failed(
              `${service} refused ${method}: ${answer.description} (${answer.error_code ?? "?"})`,
              answer.parameters?.retry_after ?? null
            )
          )
    ),
    spanNamed(`chatBridge.${method}`)
  )
}

export const getMe = (base: string, token: Redacted.Redacted<string>) =>
  Effect.map(call(base, token, "getMe", {}, Me), (me) => me.username)

const Numbered = Schema.Struct({ update_id: Schema.Int })

/**
 * Waits up to `timeoutSeconds` for updates after `offset` (which confirms every earlier one).
 * Each is decoded alone: one of a shape we do not read (an edited message, a sticker) is none,
 * still numbered, so the offset moves past it.
 */
export const getUpdates = (base: string, token: Redacted.Redacted<string>, offset: number, timeoutSeconds: number) =>
  Effect.map(
    call(
      base,
      token,
      "getUpdates",
      { offset, timeout: timeoutSeconds, allowed_updates: ["message"] },
      Schema.Array(Schema.Unknown),
      (timeoutSeconds + 10) * 1000
    ),
    (updates) =>
      updates.flatMap((raw) =>
        Option.match(Schema.decodeUnknownOption(Numbered)(raw), {
          onNone: () => [],
          onSome: ({ update_id }) => [{ updateId: update_id, update: Schema.decodeUnknownOption(Update)(raw) }]
        })
      )
  )

export const sendMessage = (base: string, token: Redacted.Redacted<string>, chatId: string, text: string) =>
  Effect.map(
    call(base, token, "sendMessage", { chat_id: /^-?\d+$/.test(chatId) ? Number(chatId) : chatId, text }, Sent),
    (sent) => sent.message_id
  )
