/**
 * Outgoing mail over SMTP (`SMTP_URL`, e.g. smtp://user:pass@mail.example.org:587).
 * Without it the node says `configured: false` and offers no mail-sending action, and never loads
 * nodemailer (some 40 modules an unconfigured node's memory need not hold).
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { Settings } from "../../kernel/settings.ts"

export interface MailMessage {
  readonly to: string
  readonly subject: string
  readonly text: string
}

export class MailError extends Error {
  readonly _tag = "MailError"
}

export interface MailerShape {
  readonly configured: boolean
  readonly send: (message: MailMessage) => Effect.Effect<void, MailError>
}

export class Mailer extends Context.Tag("host/Mailer")<Mailer, MailerShape>() {
  static readonly layer = Layer.effect(
    Mailer,
    Effect.gen(function* () {
      const settings = yield* Settings
      if (Option.isNone(settings.smtpUrl)) {
        return {
          configured: false,
          send: () => Effect.fail(new MailError("Mail is not configured: set SMTP_URL."))
        }
      }
      const { default: nodemailer } = yield* Effect.promise(() => import("nodemailer"))
      const transport = nodemailer.createTransport(Redacted.value(settings.smtpUrl.value))
      return {
        configured: true,
        send: (message) =>
          Effect.tryPromise({
            try: () => transport.sendMail({ from: settings.mailFrom, ...message }),
            // The SMTP URL may hold a password; only the server's answer goes into the error.
            catch: (cause) => new MailError(cause instanceof Error ? cause.message : "The mail server refused the message.")
          }).pipe(Effect.asVoid)
      }
    })
  )
}
