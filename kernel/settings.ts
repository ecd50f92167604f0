/**
 * The node's typed settings, read once from the environment.
 * Every setting is documented in docs/operations.md with its default; a setting that is
 * a secret is held as a Redacted so it never reaches a log or a response by accident.
 */
import * as Config from "effect/Config"
import * as ConfigError from "effect/ConfigError"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
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

/** The spec's model tiers: each names a job, and settings bind it to a model, a base URL and a key. */
export const modelTiers = ["cheap", "standard", "strong", "image", "embed", "video", "transcribe", "speech", "ocr"] as const
export type ModelTierName = (typeof modelTiers)[number]

/** Whether a model server runs on this host or network, when its address says otherwise. */
const optionalFlag = (name: string) => Config.option(Config.boolean(name))

/** `LLM_<TIER>_MODEL`, `_BASE_URL`, `_API_KEY`, `_LOCAL`: one tier's own binding, each part optional. */
const tierBinding = (tier: ModelTierName) => {
  const prefix = `LLM_${tier.toUpperCase()}`
  return Config.all({
    model: optionalString(`${prefix}_MODEL`),
    baseUrl: optionalString(`${prefix}_BASE_URL`),
    apiKey: optionalSecret(`${prefix}_API_KEY`),
    local: optionalFlag(`${prefix}_LOCAL`)
  })
}

const tierBindings = Config.all(
  Object.fromEntries(modelTiers.map((tier) => [tier, tierBinding(tier)])) as {
    readonly [T in ModelTierName]: ReturnType<typeof tierBinding>
  }
)

export interface ModelPrice {
  /** USD per million input (prompt) tokens. */
  readonly input: number
  /** USD per million output (completion) tokens. */
  readonly output: number
}

/** `LLM_PRICES`: JSON `{ "<model id>": { "input": <usd/1M>, "output": <usd/1M> } }`. */
const modelPrices = Config.string("LLM_PRICES").pipe(
  Config.mapOrFail((text) => {
    const invalid = ConfigError.InvalidData([], `LLM_PRICES must be JSON like {"my-model": {"input": 0.5, "output": 1.5}}`)
    try {
      const parsed: unknown = JSON.parse(text)
      if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return Either.left(invalid)
      const entries = Object.entries(parsed)
      const valid = entries.every(
        ([, price]) =>
          typeof price?.input === "number" && typeof price?.output === "number" && price.input >= 0 && price.output >= 0
      )
      return valid ? Either.right(Object.fromEntries(entries) as Readonly<Record<string, ModelPrice>>) : Either.left(invalid)
    } catch {
      return Either.left(invalid)
    }
  }),
  Config.withDefault({} as Readonly<Record<string, ModelPrice>>)
)

const usd = (name: string, fallback: number) =>
  Config.number(name).pipe(
    Config.validate({ message: `${name} must be a number of US dollars, 0 or more`, validation: (value) => value >= 0 }),
    Config.withDefault(fallback)
  )

const flag = (name: string) =>
  Config.string(name).pipe(
    Config.map((value) => ["1", "true", "yes", "on"].includes(value.toLowerCase())),
    Config.withDefault(false)
  )

/**
 * TRUST_PROXY was once a yes/no that trusted the first X-Forwarded-For entry, which the client
 * writes itself; an old `true` now stops the node rather than guess how many proxies there are.
 */
const proxyHops = Config.string("TRUST_PROXY").pipe(
  Config.mapOrFail((value) => {
    const text = value.trim().toLowerCase()
    if (text === "" || text === "false" || text === "no" || text === "off") return Either.right(0)
    return /^\d{1,2}$/.test(text)
      ? Either.right(Number(text))
      : Either.left(ConfigError.InvalidData(["TRUST_PROXY"],
        "TRUST_PROXY is the number of proxies you run in front of the node (e.g. 1), or 0 when there are none"))
  }),
  Config.withDefault(0)
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
  /**
   * Proxies of yours in front of the node: the client address is the X-Forwarded-For entry this
   * many places from the right (each proxy appends the address it heard from). 0: the socket's.
   */
  trustProxy: proxyHops,
  /** Bytes of a JSON request body; a route that takes more declares its own limit and setting. */
  maxJsonBytes: Config.integer("MAX_JSON_BYTES").pipe(
    Config.withDefault(1024 * 1024),
    Config.validate({ message: "MAX_JSON_BYTES must be a whole number of bytes, at least 1024", validation: (n) => n >= 1024 })
  ),
  smtpUrl: optionalSecret("SMTP_URL"),
  mailFrom: Config.string("MAIL_FROM").pipe(Config.withDefault("node@localhost")),
  llmApiKey: optionalSecret("LLM_API_KEY"),
  llmBaseUrl: optionalString("LLM_BASE_URL"),
  llmLocal: optionalFlag("LLM_LOCAL"),
  /** The model of every chat tier that names none of its own. */
  llmModel: optionalString("LLM_MODEL"),
  llmTiers: tierBindings,
  localLlmFallback: flag("LOCAL_LLM_FALLBACK"),
  /** A model call whose provider has not begun answering by then fails; so does a stream silent that long. */
  llmTimeoutMs: Config.integer("LLM_TIMEOUT_MS").pipe(Config.withDefault(120_000)),
  /** Prices of models the seeded table lacks, or corrections to it. */
  llmPrices: modelPrices,
  /** The three spend ceilings checked before every model call. */
  spendMaxCallUsd: usd("SPEND_MAX_CALL_USD", 0.5),
  spendMaxProjectUsd: usd("SPEND_MAX_PROJECT_USD", 5),
  spendMaxDayUsd: usd("SPEND_MAX_DAY_USD", 20),
  logLevel: Config.string("LOG_LEVEL").pipe(Config.withDefault("info")),
  pluginDir: Config.string("PLUGIN_DIR").pipe(Config.withDefault("plugins")),
  /** Tasks of one studio project that run at once. */
  studioTaskConcurrency: Config.integer("STUDIO_TASK_CONCURRENCY").pipe(
    Config.withDefault(3),
    Config.validate({ message: "STUDIO_TASK_CONCURRENCY must be a whole number of at least 1", validation: (n) => n >= 1 })
  ),
  /** The engine behind web.search; SearXNG is the one provider so far. */
  searchProvider: Config.literal("searxng")("SEARCH_PROVIDER").pipe(Config.withDefault("searxng" as const)),
  /** Base URL of the search engine (e.g. a SearXNG at http://127.0.0.1:8888); unset: web.search says so. */
  searchUrl: optionalString("SEARCH_URL").pipe(
    Config.mapOrFail((url) =>
      Option.isNone(url) || URL.canParse(url.value)
        ? Either.right(url)
        : Either.left(ConfigError.InvalidData(["SEARCH_URL"], "SEARCH_URL must be a URL such as http://127.0.0.1:8888"))
    )
  ),
  /** Let web.fetch reach loopback, private and link-local addresses (refused by default). */
  webAllowPrivate: flag("WEB_ALLOW_PRIVATE")
})

export type SettingsShape = Config.Config.Success<typeof settingsConfig>

export class Settings extends Context.Tag("kernel/Settings")<Settings, SettingsShape>() {
  static readonly layer = Layer.effect(Settings, settingsConfig)
  /** Settings from defaults plus the given overrides, for tests. */
  static readonly layerWith = (overrides: Partial<SettingsShape>) =>
    Layer.effect(Settings, Effect.map(settingsConfig, (base) => ({ ...base, ...overrides })))
}
