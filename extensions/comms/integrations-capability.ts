/**
 * The `integrations` capability's adapter: the node's mail and chat accounts, used on behalf of
 * the calling being. This feature implements it (adapter.ts): it picks the credential (the
 * being's own connection first, then the node's setting), speaks the protocol, and records what
 * was done in the being's twin activity. Every method is refused with a message that says
 * plainly why (not configured and what to set, refused by the server) and never holds a secret.
 *
 * The kernel knows the capability only by its kind; this file types its adapter in the kernel's
 * list (kernel/extensions/adapters.ts) by declaration merging, so a plugin's context reads
 * `adapters.integrations` as this shape while the kernel names no provider.
 */
import type * as Effect from "effect/Effect"
import type { CapabilityRefused } from "../../kernel/extensions/capability-refused.ts"

export interface OutgoingMail {
  /** One or more addresses. */
  readonly to: ReadonlyArray<string>
  readonly subject: string
  readonly text: string
}

export interface MailSent {
  readonly to: ReadonlyArray<string>
  readonly subject: string
  /** The being's own mail_a mailbox (Gmail), or the node's SMTP server. */
  readonly via: AccountUsed
}

/** Whose account did it: the calling being's own connection, or the node's setting. */
export type AccountUsed = "connection" | "node"

export interface MailboxQuery {
  /** A folder such as INBOX. */
  readonly mailbox: string
  /** Most recent first, at most this many. */
  readonly limit: number
  readonly unseenOnly: boolean
  /** Characters of each message's text to keep; 0 reads no bodies. */
  readonly snippetChars: number
}

export interface MailSummary {
  /** The message's id in its mailbox: the IMAP uid as text, or the Gmail message id. */
  readonly id: string
  /** The IMAP uid; null for a message read through the Gmail API, which has none. */
  readonly uid: number | null
  /** `Name <address>`, comma-separated when several. */
  readonly from: string
  readonly subject: string
  /** ISO 8601, or null when the message has no usable date. */
  readonly date: string | null
  readonly seen: boolean
  readonly snippet: string
}

export interface MailboxRead {
  readonly mailbox: string
  /** Messages in the folder, listed or not. */
  readonly total: number
  /** Newest first. */
  readonly messages: ReadonlyArray<MailSummary>
}

export interface IntegrationsAdapter {
  readonly email: {
    /** Through the being's own mail_a mailbox when it connected one (Gmail), else the node's SMTP path (SMTP_URL). */
    readonly send: (mail: OutgoingMail) => Effect.Effect<MailSent, CapabilityRefused>
    /**
     * The being's own mailbox when it connected one (Gmail, or an IMAP URL connected before), else the node's
     * (IMAP_URL); read-only.
     */
    readonly read: (
      query: MailboxQuery
    ) => Effect.Effect<MailboxRead & { readonly via: AccountUsed }, CapabilityRefused>
  }
  /** The first chat service (the Telegram Bot API): the being's own bot token, else CHAT_A_BOT_TOKEN. */
  readonly chatA: {
    readonly send: (message: { readonly chatId: string; readonly text: string }) => Effect.Effect<
      {
        readonly chatId: string
        readonly messageId: number
        readonly via: AccountUsed
      },
      CapabilityRefused
    >
  }
  /** The second chat service (the Slack Web API): the being's own token, else CHAT_B_TOKEN. */
  readonly chatB: {
    readonly send: (message: { readonly channel: string; readonly text: string }) => Effect.Effect<
      {
        readonly channel: string
        readonly ts: string
        readonly via: AccountUsed
      },
      CapabilityRefused
    >
  }
}

declare module "../../kernel/extensions/adapters.ts" {
  interface CapabilityAdapters {
    readonly integrations: IntegrationsAdapter
  }
}
