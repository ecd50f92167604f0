/**
 * The accounts' own settings: the owner's bootstrap code, the key that signs the session cookie
 * and the cookie's domain (docs/operations.md lists each with its default). Secrets are held as
 * Redacted so they never reach a log or an answer by accident.
 */
import * as Config from "effect/Config"
import * as Context from "effect/Context"
import { optionalSecret, optionalString, settingsLayer } from "../../kernel/settings.ts"

export const authSettingsConfig = Config.all({
  ownerAccessCode: optionalSecret("OWNER_ACCESS_CODE"),
  /** Key that signs the session cookie; generated once and kept in the database when unset. */
  sessionSecret: optionalSecret("SESSION_SECRET"),
  cookieDomain: optionalString("COOKIE_DOMAIN")
})

export type AuthSettingsShape = Config.Config.Success<typeof authSettingsConfig>

export class AuthSettings extends Context.Tag("auth/AuthSettings")<AuthSettings, AuthSettingsShape>() {
  static readonly layer = (overrides?: Partial<AuthSettingsShape>) =>
    settingsLayer(AuthSettings, authSettingsConfig, overrides)
}
