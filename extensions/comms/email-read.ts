/**
 * email.read: the most recent messages of a mailbox, newest first: sender, subject, date and the
 * start of each one's text. It reads the calling being's own mailbox when it connected one, else
 * the node's (IMAP_URL), read-only, and records a `read_email` activity in the being's twin.
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { defineSkill, withDefault } from "../../kernel/extensions/skill.ts"
import { throughIntegrations } from "./through-integrations.ts"

export const maxMessages = 50

const Input = Schema.Struct({
  mailbox: withDefault(
    Schema.String.pipe(
      Schema.filter((name) => (name.trim() !== "" && !/[\r\n\0]/.test(name)) || "a mailbox name such as INBOX"),
      Schema.maxLength(200)
    ),
    "INBOX"
  ),
  limit: withDefault(
    Schema.Int.pipe(Schema.between(1, maxMessages)).annotations({
      description: "At most this many messages, newest first."
    }),
    10
  ),
  unseenOnly: withDefault(Schema.Boolean, false),
  snippetChars: withDefault(
    Schema.Int.pipe(Schema.between(0, 2000)).annotations({
      description: "Characters of each message's text to include; 0 reads no bodies."
    }),
    280
  )
})

const Output = Schema.Struct({
  mailbox: Schema.String,
  total: Schema.Int.annotations({ description: "Messages in the mailbox, listed or not." }),
  messages: Schema.Array(
    Schema.Struct({
      id: Schema.String.annotations({
        description: "The message's id in its mailbox (an IMAP uid, or a Gmail message id)."
      }),
      uid: Schema.NullOr(Schema.Int).annotations({ description: "The IMAP uid; null for a Gmail message." }),
      from: Schema.String,
      subject: Schema.String,
      date: Schema.NullOr(Schema.String),
      seen: Schema.Boolean,
      snippet: Schema.String
    })
  ),
  via: Schema.Literal("connection", "node").annotations({
    description: "Whose mailbox: your own connection (mail_a), or the node's (IMAP_URL)."
  })
})

export const emailRead = defineSkill({
  description:
    "List the most recent emails of a mailbox (your connected one, else the node's IMAP_URL): sender, subject, date and the start of the text.",
  input: Input,
  output: Output,
  timeoutMs: 60_000,
  run: (input, context) =>
    throughIntegrations("email.read", context, (integrations) => integrations.email.read(input)).pipe(
      Effect.tap((read) =>
        context.trace({
          kind: "message",
          text: `read ${read.messages.length} of ${read.total} emails in ${read.mailbox}`
        })
      )
    )
})
