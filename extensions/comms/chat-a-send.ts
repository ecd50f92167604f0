/**
 * chat_a.send: one text message to a chat on the first chat service (the Telegram Bot API), as the
 * calling being's own bot when it connected one, else the node's (CHAT_A_BOT_TOKEN). It acts on
 * the world, so it runs only when a human approved this exact call; a `sent` activity is recorded.
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { defineSkill } from "../../kernel/extensions/skill.ts"
import { throughIntegrations } from "./through-integrations.ts"

/** The Bot API's own limit on one message. */
export const maxChatAText = 4096

const ChatId = Schema.Union(
  Schema.Int,
  Schema.String.pipe(
    Schema.filter(
      (id) => /^(-?\d{1,20}|@[A-Za-z][A-Za-z0-9_]{3,31})$/.test(id) || "a numeric chat id or a public @channelname"
    )
  )
).annotations({ description: "The chat: its numeric id (negative for groups), or @name of a public channel." })

const Input = Schema.Struct({
  chatId: ChatId,
  text: Schema.String.pipe(
    Schema.filter((text) => text.trim() !== "" || "some text to send"),
    Schema.maxLength(maxChatAText)
  )
})

const Output = Schema.Struct({
  sent: Schema.Boolean,
  chatId: Schema.String,
  messageId: Schema.Int,
  via: Schema.Literal("connection", "node").annotations({
    description: "Whose bot sent it: your own connection, or the node's."
  })
})

export const chatASend = defineSkill({
  description:
    "Send a text message to a chat on chat_a (the Telegram Bot API), from your connected bot or the node's. Acts on the world: runs only once a human approves it.",
  input: Input,
  output: Output,
  timeoutMs: 30_000,
  run: (input, context) =>
    throughIntegrations("chat_a.send", context, (integrations) =>
      integrations.chatA.send({ chatId: String(input.chatId), text: input.text })
    ).pipe(
      Effect.map((sent) => {
        context.trace({ kind: "message", text: `chat_a message sent to ${sent.chatId}` })
        return { sent: true, ...sent }
      })
    )
})
