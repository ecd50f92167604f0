/**
 * The models' own settings: the default binding, each tier's binding, prices, the timeout and
 * the three spend ceilings, read once from the environment (docs/operations.md lists each with
 * its default). Keys are held as Redacted so they never reach a log or an answer by accident.
 */
import * as Config from "effect/Config"
import * as ConfigError from "effect/ConfigError"
import * as Context from "effect/Context"
import * as Either from "effect/Either"
import { flag, optionalFlag, optionalSecret, optionalString, settingsLayer } from "../../kernel/settings.ts"
import { modelTiers, type ModelPrice, type ModelTier } from "./contract/records.ts"

/** `LLM_<TIER>_MODEL`, `_BASE_URL`, `_API_KEY`, `_LOCAL`: one tier's own binding, each part optional. */
const tierBinding = (tier: ModelTier) => {
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
    readonly [T in ModelTier]: ReturnType<typeof tierBinding>
  }
)

/** Ollama, llama.cpp's server, vLLM and LM Studio listen here by default. */
export const DEFAULT_LOCAL_LLM_PORTS: ReadonlyArray<number> = [11434, 8080, 8000, 1234]

const isPrice = (value: unknown): value is number => typeof value === "number" && value >= 0

/** The prices by a tier's own unit that LLM_PRICES may name beside (or instead of) `input` and `output`. */
const unitPrices = ["perMinute", "perMillionCharacters", "perVideoSecond"] as const

/** One model's price as LLM_PRICES writes it: by tokens (`input` and `output`), by its tier's own unit, or both. */
const priceOf = (price: unknown): ModelPrice | null => {
  if (typeof price !== "object" || price === null) return null
  const fields = price as Record<string, unknown>
  const { input, output } = fields
  const byTokens = isPrice(input) && isPrice(output)
  const named = unitPrices.filter((unit) => fields[unit] !== undefined)
  if (named.length === 0) return byTokens ? { input, output } : null
  if (!named.every((unit) => isPrice(fields[unit])) || (!byTokens && (input !== undefined || output !== undefined)))
    return null
  const units = Object.fromEntries(named.map((unit) => [unit, fields[unit] as number]))
  return byTokens ? { input, output, ...units } : { input: 0, output: 0, ...units }
}

/**
 * `LLM_PRICES`: JSON `{ "<model id>": { "input": <usd/1M>, "output": <usd/1M> } }`, or in a tier's
 * own unit: `{ "perMinute": <usd a minute of audio heard> }` (transcribe), `{ "perMillionCharacters":
 * <usd> }` (speech), `{ "perVideoSecond": <usd> }` (video).
 */
const modelPrices = Config.string("LLM_PRICES").pipe(
  Config.mapOrFail((text) => {
    const invalid = ConfigError.InvalidData(
      [],
      `LLM_PRICES must be JSON like {"my-model": {"input": 0.5, "output": 1.5}, "my-whisper": {"perMinute": 0.006}, ` +
        `"my-tts": {"perMillionCharacters": 15}, "my-video": {"perVideoSecond": 0.1}}`
    )
    try {
      const parsed: unknown = JSON.parse(text)
      if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return Either.left(invalid)
      const prices = Object.entries(parsed).map(([model, price]) => [model, priceOf(price)] as const)
      return prices.every(([, price]) => price !== null)
        ? Either.right(Object.fromEntries(prices) as Readonly<Record<string, ModelPrice>>)
        : Either.left(invalid)
    } catch {
      return Either.left(invalid)
    }
  }),
  Config.withDefault({} as Readonly<Record<string, ModelPrice>>)
)

const usd = (name: string, fallback: number) =>
  Config.number(name).pipe(
    Config.validate({
      message: `${name} must be a number of US dollars, 0 or more`,
      validation: (value) => value >= 0
    }),
    Config.withDefault(fallback)
  )

export const modelSettingsConfig = Config.all({
  llmApiKey: optionalSecret("LLM_API_KEY"),
  llmBaseUrl: optionalString("LLM_BASE_URL"),
  llmLocal: optionalFlag("LLM_LOCAL"),
  /** The model of every chat tier that names none of its own. */
  llmModel: optionalString("LLM_MODEL"),
  llmTiers: tierBindings,
  localLlmFallback: flag("LOCAL_LLM_FALLBACK"),
  /** Every tier's environment binding is the node's own demo models (`npm run demo`). */
  llmDemo: flag("LLM_DEMO"),
  /** The loopback ports asked for a local model server (detect): Ollama, llama.cpp, vLLM, LM Studio. */
  localLlmPorts: Config.string("LOCAL_LLM_PORTS").pipe(
    Config.mapOrFail((text) => {
      const ports = text.split(",").map((part) => Number(part.trim()))
      return ports.length > 0 && ports.every((port) => Number.isInteger(port) && port > 0 && port < 65536)
        ? Either.right(ports as ReadonlyArray<number>)
        : Either.left(ConfigError.InvalidData([], "LOCAL_LLM_PORTS must be a comma list of ports, like 11434,8080"))
    }),
    Config.withDefault(DEFAULT_LOCAL_LLM_PORTS)
  ),
  /** A model call whose provider has not begun answering by then fails; so does a stream silent that long. */
  llmTimeoutMs: Config.integer("LLM_TIMEOUT_MS").pipe(Config.withDefault(120_000)),
  /** How long a video may take to render, from its request to its last byte (a render takes minutes). */
  llmVideoTimeoutMs: Config.integer("LLM_VIDEO_TIMEOUT_MS").pipe(Config.withDefault(900_000)),
  /** Prices of models the seeded table lacks, or corrections to it. */
  llmPrices: modelPrices,
  /** The three spend ceilings checked before every model call. */
  spendMaxCallUsd: usd("SPEND_MAX_CALL_USD", 0.5),
  spendMaxProjectUsd: usd("SPEND_MAX_PROJECT_USD", 5),
  spendMaxDayUsd: usd("SPEND_MAX_DAY_USD", 20)
})

export type ModelSettingsShape = Config.Config.Success<typeof modelSettingsConfig>

export class ModelSettings extends Context.Tag("models/ModelSettings")<ModelSettings, ModelSettingsShape>() {
  static readonly layer = (overrides?: Partial<ModelSettingsShape>) =>
    settingsLayer(ModelSettings, modelSettingsConfig, overrides)
}
