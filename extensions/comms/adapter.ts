/**
 * The `integrations` capability adapter: mail and chat used for the calling being, with its own
 * connection's credential when it has one (connections.ts), else the node's setting. Each act that
 * succeeds is recorded in that being's twin activity, which publishes `twin.activity`; a failure
 * is refused with the service's own plain words, never a secret.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { refusedWithMessage } from "../../kernel/extensions/capability-refused.ts"
import type { CallScope } from "../../kernel/extensions/context.ts"
import type { AccountUsed, IntegrationsAdapter, MailboxRead } from "./integrations-capability.ts"
import { ActivityLog } from "../twin/contract/activity-log.ts"
import type { TwinActivityKind } from "../twin/contract/records.ts"
import { Mailer } from "../mail/contract/mailer.ts"
import { BeingConnections, type ConnectedProvider } from "./connections.ts"
import { MailAAccounts } from "./mail-a/accounts.ts"
import { readGmail, sendGmail } from "./mail-a/gmail.ts"
import { readMailbox } from "./mailbox.ts"
import { sendTelegram } from "./chat-a.ts"
import { sendSlack } from "./chat-b.ts"
import { imapUrlProblem } from "./settings.ts"
import { IntegrationSettings } from "./contract/integration-settings.ts"
import { spanNamed } from "../../kernel/spans.ts"

export const integrationsAdapterFactory = Effect.gen(function* () {
  const mailer = yield* Mailer
  const activity = yield* ActivityLog
  const settings = yield* IntegrationSettings
  const connections = yield* BeingConnections
  const mailA = yield* MailAAccounts
  /** What the adapter was built with: the note's fiber runs with it, outside any transaction of its caller's. */
  const built = yield* Effect.context<never>()

  /** Runs one act; its failure becomes the refusal the skill reports. */
  const settle = refusedWithMessage

  /**
   * Notes the act in the being's twin on a fiber of its own. Never awaited: a call approved with
   * 'Do it' runs inside the transaction that answers the signal, and the note waits for that
   * transaction's connection. What was done is done: a note that fails is logged, not reported.
   */
  const note = (scope: CallScope, kind: TwinActivityKind, summary: string) =>
    scope.beingId === null
      ? Effect.void
      : Effect.asVoid(
          Effect.forkDaemon(
            activity.record(scope.beingId, kind, summary).pipe(
              Effect.catchAllCause((cause) =>
                Effect.logWarning("integrations: the twin activity was not recorded", cause)
              ),
              Effect.mapInputContext<never, never>(() => built)
            )
          )
        )

  const attempt = <A>(act: (signal: AbortSignal) => Promise<A>) =>
    Effect.tryPromise({ try: act, catch: (error) => (error instanceof Error ? error : new Error(String(error))) })

  /** The being's own credential for the provider, else the node's setting, else a refusal saying what to set. */
  const account = (
    scope: CallScope,
    provider: ConnectedProvider,
    node: Option.Option<Redacted.Redacted<string>>,
    unconfigured: string
  ) =>
    Effect.gen(function* () {
      const own = scope.beingId === null ? Option.none() : yield* connections.credential(scope.beingId, provider)
      if (Option.isSome(own)) return { secret: Redacted.value(own.value), via: "connection" as AccountUsed }
      if (Option.isSome(node)) return { secret: Redacted.value(node.value), via: "node" as AccountUsed }
      return yield* Effect.fail(new Error(unconfigured))
    })

  const noteRead = (scope: CallScope, read: MailboxRead) =>
    note(
      scope,
      "read_email",
      `Read ${read.messages.length} ${read.messages.length === 1 ? "email" : "emails"} from ${read.mailbox}`
    )

  /** The calling being's own mail_a mailbox (Gmail), when it connected one through the consent screen. */
  const mailboxOf = (scope: CallScope) => (scope.beingId === null ? Effect.succeedNone : mailA.mailbox(scope.beingId))

  return (_plugin: unknown, scope: CallScope): IntegrationsAdapter => ({
    email: {
      send: (mail) =>
        settle(
          Effect.gen(function* () {
            const own = yield* mailboxOf(scope)
            if (Option.isSome(own))
              yield* own.value.use((token, signal) => sendGmail(settings.mailAApiUrl, token, mail, signal))
            else yield* mailer.send({ to: mail.to.join(", "), subject: mail.subject, text: mail.text })
            yield* note(scope, "sent", `Sent an email to ${mail.to.join(", ")}: "${mail.subject}"`)
            return {
              to: mail.to,
              subject: mail.subject,
              via: Option.isSome(own) ? ("connection" as const) : ("node" as const)
            }
          }).pipe(spanNamed("integrations.emailSend"))
        ),
      read: (query) =>
        settle(
          Effect.gen(function* () {
            const own = yield* mailboxOf(scope)
            if (Option.isSome(own)) {
              const read = yield* own.value.use((token, signal) =>
                readGmail(settings.mailAApiUrl, token, query, signal)
              )
              yield* noteRead(scope, read)
              return { ...read, via: "connection" as const }
            }
            const { secret, via } = yield* account(
              scope,
              "mail_a",
              settings.imapUrl,
              "email.read is not configured: set IMAP_URL (imap:// or imaps://user:pass@host:port) on the node, or connect a mailbox of your own."
            )
            const problem = imapUrlProblem(secret)
            if (problem !== null)
              return yield* Effect.fail(new Error(`the address of your connected mailbox ${problem}.`))
            const read = yield* attempt((signal) => readMailbox(secret, query, signal))
            yield* noteRead(scope, read)
            return { ...read, via }
          }).pipe(spanNamed("integrations.emailRead"))
        )
    },
    chatA: {
      send: (message) =>
        settle(
          Effect.gen(function* () {
            const { secret, via } = yield* account(
              scope,
              "chat_a",
              settings.chatABotToken,
              "chat_a.send is not configured: set CHAT_A_BOT_TOKEN (a Telegram bot token) on the node, or connect a bot of your own."
            )
            const sent = yield* attempt((signal) => sendTelegram(settings.chatAApiUrl, secret, message, signal))
            yield* note(scope, "sent", `Sent a chat_a message to ${sent.chatId}`)
            return { ...sent, via }
          }).pipe(spanNamed("integrations.chatASend"))
        )
    },
    chatB: {
      send: (message) =>
        settle(
          Effect.gen(function* () {
            const { secret, via } = yield* account(
              scope,
              "chat_b",
              settings.chatBToken,
              "chat_b.send is not configured: set CHAT_B_TOKEN (a Slack bot token) on the node, or connect a workspace of your own."
            )
            const sent = yield* attempt((signal) => sendSlack(settings.chatBApiUrl, secret, message, signal))
            yield* note(scope, "sent", `Sent a chat_b message to ${sent.channel}`)
            return { ...sent, via }
          }).pipe(spanNamed("integrations.chatBSend"))
        )
    }
  })
})
