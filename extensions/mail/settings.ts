/**
 * Outgoing mail's own settings: the SMTP server (its URL may hold a password, so it is held as
 * a Redacted) and the sender address. docs/operations.md lists each with its default.
 */
import * as Config from "effect/Config"
import * as Context from "effect/Context"
import { optionalSecret, settingsLayer } from "../../kernel/settings.ts"

export const mailSettingsConfig = Config.all({
  /** e.g. smtp://user:pass@mail.example.org:587; unset: the node sends no mail. */
  smtpUrl: optionalSecret("SMTP_URL"),
  mailFrom: Config.string("MAIL_FROM").pipe(Config.withDefault("node@localhost"))
})

export type MailSettingsShape = Config.Config.Success<typeof mailSettingsConfig>

export class MailSettings extends Context.Tag("mail/MailSettings")<MailSettings, MailSettingsShape>() {
  static readonly layer = (overrides?: Partial<MailSettingsShape>) =>
    settingsLayer(MailSettings, mailSettingsConfig, overrides)
}
