/**
 * What a call costs: the price of its model (the `LLM_PRICES` setting, then the seeded table) times
 * its tokens. A local server costs nothing. Before a call only its prompt is known, so the
 * estimate prices the prompt's characters at four a token; the answer's length is unknown then.
 */
import type { ModelPrice } from "./contract/records.ts"
import { modelPrices } from "../../seeds/model-prices.ts"
import type { Binding } from "./bindings.ts"
import type { Pricing } from "./contract/records.ts"

export interface Priced {
  readonly price: ModelPrice
  readonly pricing: Pricing
}

const free: ModelPrice = { input: 0, output: 0 }

export const priceOf = (overrides: Readonly<Record<string, ModelPrice>>, binding: Binding): Priced => {
  if (binding.local) return { price: free, pricing: "local" }
  const fromSetting = overrides[binding.model]
  if (fromSetting !== undefined) return { price: fromSetting, pricing: "setting" }
  const fromTable = modelPrices[binding.model]
  if (fromTable !== undefined) return { price: fromTable, pricing: "table" }
  return { price: free, pricing: "unknown" }
}

export const costOf = (price: ModelPrice, promptTokens: number, completionTokens: number): number =>
  (promptTokens * price.input + completionTokens * price.output) / 1_000_000

/** The common rule of thumb for English text and JSON: about four characters a token. */
export const tokensIn = (text: string): number => Math.ceil(text.length / 4)

/** What `seconds` of audio cost at the model's price by the minute (nothing for a model priced only by tokens). */
export const costOfAudio = (price: ModelPrice, seconds: number): number => ((price.perMinute ?? 0) * seconds) / 60

/** What speaking `characters` of text costs at the model's price by the million characters. */
export const costOfSpeech = (price: ModelPrice, characters: number): number =>
  ((price.perMillionCharacters ?? 0) * characters) / 1_000_000

/** What `seconds` of video cost at the model's price by the second. */
export const costOfVideo = (price: ModelPrice, seconds: number): number => (price.perVideoSecond ?? 0) * seconds

/**
 * How long audio of `bytes` may last when nothing better is known: speech compressed at 16
 * kbit/s (2,000 bytes a second), about the least a browser's recorder spends on a voice. Low on
 * purpose: before a call it prices the longest the audio can plausibly be, so a ceiling is never
 * passed by underestimating it.
 */
export const audioSecondsIn = (bytes: number): number => bytes / 2000
