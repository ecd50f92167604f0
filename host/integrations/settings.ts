/**
 * The node's own mail and chat accounts, used by email.read, chat_a.send and chat_b.send when the
 * calling being has connected none of its own (connections.ts). Each holds a password or token,
 * so each is a Redacted: it never reaches a log or an answer. docs/operations.md lists them.
 */
import * as Config from "effect/Config"
import * as ConfigError from "effect/ConfigError"
import * as Context from "effect/Context"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { optionalSecret, settingsLayer } from "../../kernel/settings.ts"

/** Why an IMAP URL cannot be used, or null when it can; the value itself is never repeated. */
export const imapUrlProblem = (url: string): string | null => {
  if (!URL.canParse(url)) return "is not a URL"
  const parsed = new URL(url)
  if (parsed.protocol !== "imap:" && parsed.protocol !== "imaps:") return "must start imap:// or imaps://"
  if (parsed.username === "" || parsed.hostname === "") return "must name a user and a host (imaps://user:pass@host:993)"
  return null
}

export const integrationSettingsConfig = Config.all({
  /** The mailbox email.read lists: imap:// or imaps://user:pass@host:port; unset: email.read says to set it. */
  imapUrl: optionalSecret("IMAP_URL").pipe(
    Config.mapOrFail((url) => {
      const problem = Option.isNone(url) ? null : imapUrlProblem(Redacted.value(url.value))
      return problem === null ? Either.right(url) : Either.left(ConfigError.InvalidData(["IMAP_URL"], `IMAP_URL ${problem}`))
    })
  )
})

export type IntegrationSettingsShape = Config.Config.Success<typeof integrationSettingsConfig>

export class IntegrationSettings extends Context.Tag("integrations/IntegrationSettings")<IntegrationSettings, IntegrationSettingsShape>() {
  static readonly layer = (overrides?: Partial<IntegrationSettingsShape>) => settingsLayer(IntegrationSettings, integrationSettingsConfig, overrides)
}
