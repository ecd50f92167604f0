/**
 * Outgoing mail, the node's edge to a mail server: the tag features send through. The node binds
 * it to SMTP (extensions/mail/mailer.ts, `MailerLive`); tests bind `MailerTest`, which sends
 * nothing and keeps every message.
 */
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import type * as Effect from "effect/Effect"

export interface MailMessage {
  readonly to: string
  readonly subject: string
  readonly text: string
}

/** The message did not leave: mail is not configured, or the server refused it (its own words, never the SMTP URL). */
export class MailError extends Data.TaggedError("MailError")<{ readonly message: string }> {}

export interface MailerShape {
  /** Whether SMTP_URL is set: without it the node offers no mail-sending action. */
  readonly configured: boolean
  readonly send: (message: MailMessage) => Effect.Effect<void, MailError>
}

export class Mailer extends Context.Tag("mail/Mailer")<Mailer, MailerShape>() {}
