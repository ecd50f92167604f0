/**
 * mail_a as a provider the twin syncs (its RemoteSyncs port): one pass lists the being's recent
 * mail through the Gmail API (the last 30 days of the inbox, newest first, at most `maxMessages`)
 * and reads each message whole, answering a ProviderSyncResult's shape for the twin to validate
 * and remember. A message already remembered is skipped by the twin by its id, so there is no
 * cursor to keep: a pass always looks at the newest mail.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { RemoteSyncs } from "../../twin/contract/remote-syncs.ts"
import type { ProviderSyncItem } from "../../twin/contract/records.ts"
import { IntegrationSettings } from "../contract/integration-settings.ts"
import { MAIL_A_PROVIDER, MailAAccounts } from "./accounts.ts"
import { MAIL_A_AUTH_PATH } from "./consent.ts"
import { getMessage, listMessages, type GmailMessage } from "./gmail.ts"
import { spanNamed } from "../../../kernel/spans.ts"

/** The newest messages one pass reads: each is one request, so a first sync stays a matter of seconds. */
export const maxMessages = 50

const itemOf = (message: GmailMessage): typeof ProviderSyncItem.Encoded => {
  const text = message.text === "" ? message.snippet : message.text
  return {
    id: message.id.slice(0, 200),
    title: (message.subject === "" ? "(no subject)" : message.subject).slice(0, 300),
    text: [`From: ${message.from}`, `To: ${message.to}`, "", text === "" ? "(no text)" : text]
      .join("\n")
      .slice(0, 8000),
    url: null,
    at: message.date
  }
}

export const MailASyncLive = Layer.effect(
  RemoteSyncs,
  Effect.gen(function* () {
    const accounts = yield* MailAAccounts
    const settings = yield* IntegrationSettings
    const pull = (beingId: string) =>
      Effect.gen(function* () {
        const mailbox = yield* accounts.mailbox(beingId)
        if (Option.isNone(mailbox))
          return yield* Effect.fail(new Error("your mail connection no longer opens: connect mail again."))
        return yield* mailbox.value.use(async (token) => {
          const listed = await listMessages(settings.mailAApiUrl, token, {
            q: "newer_than:30d",
            label: "INBOX",
            max: maxMessages
          })
          const items: Array<typeof ProviderSyncItem.Encoded> = []
          for (const id of listed.ids) items.push(itemOf(await getMessage(settings.mailAApiUrl, token, id)))
          return {
            items,
            cursor: null,
            note: listed.total > listed.ids.length ? `the newest ${listed.ids.length} of about ${listed.total}` : ""
          }
        })
      }).pipe(spanNamed("mailA.syncPass"))
    return [
      {
        provider: MAIL_A_PROVIDER,
        title: "Mail (Gmail)",
        icon: "\u2709\uFE0F",
        activity: "read_email" as const,
        configured: Option.isSome(accounts.client),
        unconfigured:
          "The node's owner sets MAIL_A_CLIENT_ID and MAIL_A_CLIENT_SECRET (an OAuth client at Google) before mail can be connected.",
        connect: `Connect your mailbox through Google's consent screen (${MAIL_A_AUTH_PATH}), then sync.`,
        pull
      }
    ]
  })
)
