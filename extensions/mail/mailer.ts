/**
 * Outgoing mail over SMTP (`SMTP_URL`, e.g. smtp://user:pass@mail.example.org:587).
 * Without it the node says `configured: false` and offers no mail-sending action, and never loads
 * nodemailer (some 40 modules an unconfigured node's memory need not hold).
 * Mail is an edge to the outside world, so tests of the features that send it take
 * `MailerTest`, which sends nothing and keeps what it would have sent in `Outbox`.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Queue from "effect/Queue"
import * as Redacted from "effect/Redacted"
import * as Ref from "effect/Ref"
import { MailError, Mailer, type MailerShape, type MailMessage } from "./contract/mailer.ts"
import { MailSettings } from "./settings.ts"
import { spanNamed } from "../../kernel/spans.ts"

const unconfigured: MailerShape = {
  configured: false,
  send: () => Effect.fail(new MailError({ message: "Mail is not configured: set SMTP_URL." }))
}

/** The mail a test's Mailer would have sent: all of it so far, or the next one as it is sent. */
export class Outbox extends Context.Tag("mail/Outbox")<
  Outbox,
  {
    readonly sent: Effect.Effect<ReadonlyArray<MailMessage>>
    readonly next: Effect.Effect<MailMessage>
  }
>() {}

const make = Effect.gen(function* () {
  const settings = yield* MailSettings
  if (Option.isNone(settings.smtpUrl)) return unconfigured
  const { default: nodemailer } = yield* Effect.promise(() => import("nodemailer"))
  const transport = nodemailer.createTransport(Redacted.value(settings.smtpUrl.value))
  return {
    configured: true,
    send: (message) =>
      Effect.tryPromise({
        try: () => transport.sendMail({ from: settings.mailFrom, ...message }),
        // The SMTP URL may hold a password; only the server's answer goes into the error.
        catch: (cause) =>
          new MailError({ message: cause instanceof Error ? cause.message : "The mail server refused the message." })
      }).pipe(Effect.asVoid, spanNamed("mail.send"))
  } satisfies MailerShape
})

export const MailerLive: Layer.Layer<Mailer, never, MailSettings> = Layer.effect(Mailer, make)

/** A configured mailer that sends nothing and keeps every message in `Outbox`. */
export const MailerTest: Layer.Layer<Mailer | Outbox> = Layer.effectContext(
  Effect.gen(function* () {
    const sent = yield* Ref.make<ReadonlyArray<MailMessage>>([])
    const arrivals = yield* Queue.unbounded<MailMessage>()
    const send = (message: MailMessage) =>
      Effect.zipRight(
        Ref.update(sent, (all) => [...all, message]),
        Queue.offer(arrivals, message)
      )
    return Context.make(Outbox, { sent: Ref.get(sent), next: Queue.take(arrivals) }).pipe(
      Context.add(Mailer, { configured: true, send: (message) => Effect.asVoid(send(message)) })
    )
  })
)
