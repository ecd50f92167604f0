/**
 * The node's own mail and chat accounts, used by email.read, chat_a.send and chat_b.send when the
 * calling being has connected none of its own (connections.ts). Each holds a password or token,
 * so each is a Redacted: it never reaches a log or an answer. docs/operations.md lists them.
 */
import * as Config from "effect/Config"
import * as ConfigError from "effect/ConfigError"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { optionalSecret, optionalString, settingsLayer } from "../../kernel/settings.ts"
import { IntegrationSettings, type IntegrationSettingsShape } from "./contract/integration-settings.ts"

/** Why an IMAP URL cannot be used, or null when it can; the value itself is never repeated. */
export const imapUrlProblem = (url: string): string | null => {
  if (!URL.canParse(url)) return "is not a URL"
  const parsed = new URL(url)
  if (parsed.protocol !== "imap:" && parsed.protocol !== "imaps:") return "must start imap:// or imaps://"
  if (parsed.username === "" || parsed.hostname === "")
    return "must name a user and a host (imaps://user:pass@host:993)"
  return null
}

/** An API base URL: http or https, read at start so a typo stops the node rather than a send. */
const apiBase = (name: string, fallback: string) =>
  Config.string(name).pipe(
    Config.withDefault(fallback),
    Config.mapOrFail((url) =>
      URL.canParse(url) && ["http:", "https:"].includes(new URL(url).protocol)
        ? Either.right(url)
        : Either.left(ConfigError.InvalidData([name], `${name} must be an http or https URL such as ${fallback}`))
    )
  )

export const integrationSettingsConfig: Config.Config<IntegrationSettingsShape> = Config.all({
  /** The mailbox email.read lists: imap:// or imaps://user:pass@host:port; unset: email.read says to set it. */
  imapUrl: optionalSecret("IMAP_URL").pipe(
    Config.mapOrFail((url) => {
      const problem = Option.isNone(url) ? null : imapUrlProblem(Redacted.value(url.value))
      return problem === null
        ? Either.right(url)
        : Either.left(ConfigError.InvalidData(["IMAP_URL"], `IMAP_URL ${problem}`))
    })
  ),
  /** chat_a speaks the Telegram Bot API at this base (a local Bot API server, or a test's). */
  chatAApiUrl: apiBase("CHAT_A_API_URL", "https://api.telegram.org"),
  /** The node's bot token for chat_a.send; unset: chat_a.send says to set it. */
  chatABotToken: optionalSecret("CHAT_A_BOT_TOKEN"),
  /** chat_b speaks the Slack Web API at this base. */
  chatBApiUrl: apiBase("CHAT_B_API_URL", "https://slack.com/api"),
  /** The node's Slack token (a bot token, xoxb-...) for chat_b.send; unset: chat_b.send says to set it. */
  chatBToken: optionalSecret("CHAT_B_TOKEN"),
  /** mail_a's consent screen (OAuth 2.0 authorization endpoint): Google's unless a test or proxy says otherwise. */
  mailAAuthUrl: apiBase("MAIL_A_AUTH_URL", "https://accounts.google.com/o/oauth2/v2/auth"),
  /** mail_a's token endpoint: the code exchange and each refresh. */
  mailATokenUrl: apiBase("MAIL_A_TOKEN_URL", "https://oauth2.googleapis.com/token"),
  /** The Gmail REST API's base, up to and without `/users/me/...`. */
  mailAApiUrl: apiBase("MAIL_A_API_URL", "https://gmail.googleapis.com/gmail/v1"),
  /** The node's OAuth client at the mail provider; unset (with the secret): mail_a is not configured. */
  mailAClientId: optionalString("MAIL_A_CLIENT_ID"),
  mailAClientSecret: optionalSecret("MAIL_A_CLIENT_SECRET")
})

export const integrationSettingsLayer = (overrides?: Partial<IntegrationSettingsShape>) =>
  settingsLayer(IntegrationSettings, integrationSettingsConfig, overrides)
