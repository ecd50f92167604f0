/**
 * The node's typed settings, read once from the environment.
 * Every setting is documented in docs/operations.md with its default; a setting that is
 * a secret is held as a Redacted so it never reaches a log or a response by accident.
 */
import * as Config from "effect/Config"
import * as ConfigError from "effect/ConfigError"
import * as ConfigProvider from "effect/ConfigProvider"
import * as ConfigProviderPathPatch from "effect/ConfigProviderPathPatch"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as HashSet from "effect/HashSet"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"

/** A string setting; unset or blank is None. */
export const optionalString = (name: string) =>
  Config.option(Config.string(name)).pipe(Config.map(Option.filter((value) => value.trim() !== "")))

/** A secret setting, held as a Redacted; unset or blank is None. */
export const optionalSecret = (name: string) =>
  Config.option(Config.redacted(name)).pipe(Config.map(Option.filter((value) => Redacted.value(value).trim() !== "")))

/** An on/off setting with no default: None when unset. */
export const optionalFlag = (name: string) => Config.option(Config.boolean(name))

/** An on/off setting (1, true, yes, on), off by default. */
export const flag = (name: string) =>
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
      : Either.left(
          ConfigError.InvalidData(
            ["TRUST_PROXY"],
            "TRUST_PROXY is the number of proxies you run in front of the node (e.g. 1), or 0 when there are none"
          )
        )
  }),
  Config.withDefault(0)
)

/** A runner's address as the cluster stores it and the other runners dial it. */
export interface RunnerAddressSetting {
  readonly host: string
  readonly port: number
}

/** `host:port` (an IPv6 host in brackets); anything else stops the node with the expected form. */
export const parseRunnerAddress = (text: string): Either.Either<RunnerAddressSetting, string> => {
  const match = /^\[?([^\s[\]]+?)\]?:(\d{1,5})$/.exec(text.trim())
  const port = match === null ? NaN : Number(match[2])
  return match !== null && port >= 1 && port <= 65535
    ? Either.right({ host: match[1]!, port })
    : Either.left("CLUSTER_RUNNER_ADDRESS is this process's host:port for the other runners, e.g. 10.0.0.2:34431")
}

const clusterRunnerAddress = optionalString("CLUSTER_RUNNER_ADDRESS").pipe(
  Config.mapOrFail(
    Option.match({
      onNone: () => Either.right(Option.none<RunnerAddressSetting>()),
      onSome: (text) =>
        Either.mapBoth(parseRunnerAddress(text), {
          onLeft: (message) => ConfigError.InvalidData(["CLUSTER_RUNNER_ADDRESS"], message),
          onRight: Option.some
        })
    })
  )
)

/** Where rate-limit counts live: this process's memory, or the database every process shares. */
export type RateLimitStore = "memory" | "database"

export const settingsConfig = Config.all({
  /** Folder of what this process keeps to itself: the SQLite database and caches (kernel/file-stores.ts). */
  dataDir: Config.string("DATA_DIR").pipe(Config.withDefault("data")),
  /**
   * Folder of the files every process of a node shares (uploads, project workspaces, plugins'
   * data); None: `<DATA_DIR>/files`. Read it through kernel/file-stores.ts, never joined by hand.
   */
  filesDir: optionalString("FILES_DIR"),
  /**
   * A `postgres://` or `postgresql://` URL puts the node's database on PostgreSQL; unset, SQLite
   * under `dataDir`. A secret: the URL may carry a password.
   */
  databaseUrl: optionalSecret("DATABASE_URL").pipe(
    Config.validate({
      message: "DATABASE_URL must be a postgres:// or postgresql:// URL",
      validation: (url) => Option.isNone(url) || /^postgres(ql)?:\/\//i.test(Redacted.value(url.value).trim())
    })
  ),
  /**
   * This process's own `host:port` as one runner of a cluster (kernel/actors/actors-layer.ts):
   * where it listens for the other runners and where they reach it. None: the one-process runner.
   */
  clusterRunnerAddress: clusterRunnerAddress,
  host: Config.string("HOST").pipe(Config.withDefault("127.0.0.1")),
  port: Config.integer("PORT").pipe(Config.withDefault(8787)),
  /** Public origin when the node sits behind a proxy; decides the Secure cookie flag. */
  publicUrl: optionalString("PUBLIC_URL"),
  rateLimitPerMinute: Config.integer("RATE_LIMIT_PER_MINUTE").pipe(Config.withDefault(300)),
  /** Open live sockets one being may hold across the node (every process of a cluster); the next handshake is 429. */
  liveMaxSocketsPerBeing: Config.integer("LIVE_MAX_SOCKETS_PER_BEING").pipe(
    Config.withDefault(32),
    Config.validate({ message: "LIVE_MAX_SOCKETS_PER_BEING must be at least 1", validation: (most) => most >= 1 })
  ),
  /**
   * Where the rate limiter counts: `memory` (this process alone, the fastest) or `database` (one
   * count shared by every process over the node's database). Unset: `database` when
   * CLUSTER_RUNNER_ADDRESS makes this process one runner of several, else `memory`.
   */
  rateLimitStore: Config.all({
    chosen: Config.option(Config.literal("memory", "database")("RATE_LIMIT_STORE")),
    runner: optionalString("CLUSTER_RUNNER_ADDRESS")
  }).pipe(
    Config.map(
      ({ chosen, runner }): RateLimitStore =>
        Option.getOrElse(chosen, () => (Option.isSome(runner) ? "database" : "memory"))
    )
  ),
  /**
   * Proxies of yours in front of the node: the client address is the X-Forwarded-For entry this
   * many places from the right (each proxy appends the address it heard from). 0: the socket's.
   */
  trustProxy: proxyHops,
  /** Bytes of a JSON request body; a route that takes more declares its own limit and setting. */
  maxJsonBytes: Config.integer("MAX_JSON_BYTES").pipe(
    Config.withDefault(1024 * 1024),
    Config.validate({
      message: "MAX_JSON_BYTES must be a whole number of bytes, at least 1024",
      validation: (n) => n >= 1024
    })
  ),
  logLevel: Config.string("LOG_LEVEL").pipe(Config.withDefault("info")),
  pluginDir: Config.string("PLUGIN_DIR").pipe(Config.withDefault("plugins"))
}).pipe(
  // The runners of a cluster share their messages, shard locks and everything else through one
  // database; each process's own SQLite file would give every runner a cluster of its own.
  Config.validate({
    message: "CLUSTER_RUNNER_ADDRESS needs DATABASE_URL: the runners of a cluster share one PostgreSQL database",
    validation: (settings) => Option.isNone(settings.clusterRunnerAddress) || Option.isSome(settings.databaseUrl)
  })
)

export type SettingsShape = Config.Config.Success<typeof settingsConfig>

export class Settings extends Context.Tag("kernel/Settings")<Settings, SettingsShape>() {
  static readonly layer = Layer.effect(Settings, settingsConfig)
  /** Settings from defaults plus the given overrides, for tests. */
  static readonly layerWith = (overrides: Partial<SettingsShape>) =>
    Layer.effect(
      Settings,
      Effect.map(settingsConfig, (base) => ({ ...base, ...overrides }))
    )
}

/**
 * A feature's own settings as a layer: its Config read from the environment, with overrides
 * (tests pass one object of overrides to every feature; each takes the fields it knows).
 */
export const settingsLayer = <Id, Shape extends object>(
  tag: Context.Tag<Id, Shape>,
  config: Config.Config<Shape>,
  overrides?: Partial<Shape>
): Layer.Layer<Id, ConfigError.ConfigError> =>
  Layer.effect(tag, overrides === undefined ? config : Effect.map(config, (base) => ({ ...base, ...overrides })))

/**
 * The environment names a Config reads, found by running it against a provider that records every
 * name it is asked for and has none: each setting falls back to its default or to None.
 */
export const settingNames = (config: Config.Config<unknown>): Effect.Effect<ReadonlyArray<string>> => {
  const asked = new Set<string>()
  const recording = ConfigProvider.fromFlat(
    ConfigProvider.makeFlat({
      load: (path) => {
        asked.add(path.join("_"))
        return Effect.fail(ConfigError.MissingData([...path], "recording names only"))
      },
      enumerateChildren: () => Effect.succeed(HashSet.empty()),
      patch: ConfigProviderPathPatch.empty
    })
  )
  return Effect.withConfigProvider(config, recording).pipe(
    Effect.ignore,
    Effect.map(() => [...asked].sort())
  )
}
