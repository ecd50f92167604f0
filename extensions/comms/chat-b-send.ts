/**
 * chat_b.send: one text message to a channel on the second chat service (the Slack Web API), with
 * the calling being's own token when it connected one, else the node's (CHAT_B_TOKEN). It acts on
 * the world, so it runs only when a human approved this exact call; a `sent` activity is recorded.
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { defineSkill } from "../../kernel/extensions/skill.ts"
import { throughIntegrations } from "./through-integrations.ts"

/** chat.postMessage truncates past this many characters; refused here rather than cut. */
export const maxChatBText = 40_000

const Input = Schema.Struct({
  channel: Schema.String.pipe(
    Schema.filter(
      (channel) => /^[#@]?[A-Za-z0-9._-]{1,80}$/.test(channel) || "a channel id such as C0123456789, or #name"
    )
  ).annotations({ description: "A channel, private group or IM id (C…, G…, D…), or a #channel name." }),
  text: Schema.String.pipe(
    Schema.filter((text) => text.trim() !== "" || "some text to send"),
    Schema.maxLength(maxChatBText)
  )
})

const Output = Schema.Struct({
  sent: Schema.Boolean,
  channel: Schema.String,
  ts: Schema.String.annotations({ description: "The message's timestamp: its id in the channel." }),
  via: Schema.Literal("connection", "node").annotations({
    description: "Whose token sent it: your own connection, or the node's."
  })
})

export const chatBSend = defineSkill({
  description:
    "Post a text message to a channel on chat_b (the Slack Web API), with your connected workspace or the node's. Acts on the world: runs only once a human approves it.",
  input: Input,
  output: Output,
  timeoutMs: 30_000,
  run: (input, context) =>
    throughIntegrations("chat_b.send", context, (integrations) => integrations.chatB.send(input)).pipe(
      Effect.map((sent) => {
        context.trace({ kind: "message", text: `chat_b message posted to ${sent.channel}` })
        return { sent: true, ...sent }
      })
    )
})
