/**
 * email.send: one plain-text mail on behalf of the calling being: from its own mail_a mailbox
 * (Gmail's `messages.send`) when it connected one, else through the node's SMTP server.
 * It acts on the world, so the runtime runs it only when a human approved this exact call; the
 * host's `integrations` adapter sends it and records a `sent` activity in the being's twin.
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { defineSkill } from "../../kernel/extensions/skill.ts"
import { throughIntegrations } from "./through-integrations.ts"

export const maxRecipients = 20

// Deliberately plain: the server has the last word on an address; this keeps out what is plainly not one.
const Address = Schema.String.pipe(
  Schema.filter(
    (value) =>
      /^[^\s@<>,;:"()[\]\\]+@[^\s@<>,;:"()[\]\\]+\.[^\s@<>,;:"()[\]\\]+$/.test(value) ||
      `an email address such as ada@example.org, got ${JSON.stringify(value.slice(0, 80))}`
  )
)

const Input = Schema.Struct({
  to: Schema.Union(Address, Schema.Array(Address).pipe(Schema.minItems(1), Schema.maxItems(maxRecipients))).annotations(
    {
      description: `One address, or a list of up to ${maxRecipients}.`
    }
  ),
  subject: Schema.String.pipe(
    Schema.filter((subject) => subject.trim() !== "" || "a subject"),
    Schema.filter((subject) => !/[\r\n]/.test(subject) || "a subject on one line"),
    Schema.maxLength(300)
  ),
  text: Schema.String.pipe(
    Schema.filter((text) => text.trim() !== "" || "some text to send"),
    Schema.maxLength(100_000)
  ).annotations({
    description: "The body, plain text."
  })
})

const Output = Schema.Struct({
  sent: Schema.Boolean,
  to: Schema.Array(Schema.String),
  subject: Schema.String,
  via: Schema.Literal("connection", "node").annotations({
    description: "From whose account: your own mailbox (mail_a), or the node's mail server (SMTP_URL)."
  })
})

export const emailSend = defineSkill({
  description:
    "Send a plain-text email from your connected mailbox, else this node's mail server (SMTP_URL), to one or more addresses. Acts on the world: runs only once a human approves it.",
  input: Input,
  output: Output,
  timeoutMs: 60_000,
  run: (input, context) => {
    const to = typeof input.to === "string" ? [input.to] : [...new Set(input.to)]
    return throughIntegrations("email.send", context, (integrations) =>
      integrations.email.send({ to, subject: input.subject, text: input.text })
    ).pipe(
      Effect.map((sent) => {
        context.trace({ kind: "message", text: `email sent to ${sent.to.join(", ")}: "${sent.subject}"` })
        return { sent: true, ...sent }
      })
    )
  }
})
