/**
 * The node's typed settings, read once from the environment.
 * Every setting is documented in docs/operations.md with its default; a setting that is
 * a secret is held as a Redacted so it never reaches a log or a response by accident.
 */
import * as Config from "effect/Config"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"

const optionalString = (name: string) =>
  Config.option(Config.string(name)).pipe(
    Config.map(Option.filter((value) => value.trim() !== ""))
  )

const optionalSecret = (name: string) =>
  Config.option(Config.redacted(name)).pipe(
    Config.map(Option.filter((value) => Redacted.value(value).trim() !== ""))
  )

const flag = (name: string) =>
  Config.string(name).pipe(
    Config.map((value) => ["1", "true", "yes", "on"].includes(value.toLowerCase())),
    Config.withDefault(false)
  )

export const settingsConfig = Config.all({
  /** Folder that holds the database and everything the node writes. */
  dataDir: Config.string("DATA_DIR").pipe(Config.withDefault("data")),
  host: Config.string("HOST").pipe(Config.withDefault("127.0.0.1")),
  port: Config.integer("PORT").pipe(Config.withDefault(8787)),
  /** Public origin when the node sits behind a proxy; decides the Secure cookie flag. */
  publicUrl: optionalString("PUBLIC_URL"),
  ownerAccessCode: optionalSecret("OWNER_ACCESS_CODE"),
  /** Key that signs the session cookie; generated and stored under dataDir when unset. */
  sessionSecret: optionalSecret("SESSION_SECRET"),
  cookieDomain: optionalString("COOKIE_DOMAIN"),
  rateLimitPerMinute: Config.integer("RATE_LIMIT_PER_MINUTE").pipe(Config.withDefault(300)),
  /** Trust X-Forwarded-For for the client address (only behind a proxy you run). */
  trustProxy: flag("TRUST_PROXY"),
  smtpUrl: optionalSecret("SMTP_URL"),
  mailFrom: Config.string("MAIL_FROM").pipe(Config.withDefault("node@localhost")),
  llmApiKey: optionalSecret("LLM_API_KEY"),
  llmBaseUrl: optionalString("LLM_BASE_URL"),
  localLlmFallback: flag("LOCAL_LLM_FALLBACK"),
  logLevel: Config.string("LOG_LEVEL").pipe(Config.withDefault("info")),
  pluginDir: Config.string("PLUGIN_DIR").pipe(Config.withDefault("plugins"))
})

export type SettingsShape = Config.Config.Success<typeof settingsConfig>

export class Settings extends Context.Tag("kernel/Settings")<Settings, SettingsShape>() {
  static readonly layer = Layer.effect(Settings, settingsConfig)
  /** Settings from defaults plus the given overrides, for tests. */
  static readonly layerWith = (overrides: Partial<SettingsShape>) =>
    Layer.effect(Settings, Effect.map(settingsConfig, (base) => ({ ...base, ...overrides })))
}
