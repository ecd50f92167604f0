/**
 * The node's own mail and chat accounts and mail_a's endpoints as other features read them (the
 * twin's chat bridge speaks chat_a with the node's bot): a plain record behind a tag. The Config
 * that reads them from the environment stays with the feature (../settings.ts, which says each).
 */
import * as Context from "effect/Context"
import type * as Option from "effect/Option"
import type * as Redacted from "effect/Redacted"

export interface IntegrationSettingsShape {
  readonly imapUrl: Option.Option<Redacted.Redacted<string>>
  readonly chatAApiUrl: string
  readonly chatABotToken: Option.Option<Redacted.Redacted<string>>
  readonly chatBApiUrl: string
  readonly chatBToken: Option.Option<Redacted.Redacted<string>>
  readonly mailAAuthUrl: string
  readonly mailATokenUrl: string
  readonly mailAApiUrl: string
  readonly mailAClientId: Option.Option<string>
  readonly mailAClientSecret: Option.Option<Redacted.Redacted<string>>
}

export class IntegrationSettings extends Context.Tag("integrations/IntegrationSettings")<
  IntegrationSettings,
  IntegrationSettingsShape
>() {}
