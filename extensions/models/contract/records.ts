/** The wire shapes of models: tiers, the record of a model call, usage, and how tiers resolved. */
import * as Schema from "effect/Schema"

/** The spec's model tiers: each names a job, and settings bind it to a model, a base URL and a key. */
export const modelTiers = [
  "cheap",
  "standard",
  "strong",
  "image",
  "embed",
  "video",
  "transcribe",
  "speech",
  "ocr"
] as const

export const ModelTier = Schema.Literal(...modelTiers)
export type ModelTier = typeof ModelTier.Type

/**
 * A model's price: USD per million tokens, and in the unit of its job for the tiers that have one:
 * minutes of audio heard (transcribe), characters spoken (speech), seconds of video made (video).
 */
export interface ModelPrice {
  /** USD per million input (prompt) tokens. */
  readonly input: number
  /** USD per million output (completion) tokens. */
  readonly output: number
  /** USD per minute of audio heard (a transcription model's unit); absent: audio costs nothing by the minute. */
  readonly perMinute?: number
  /** USD per million characters of text spoken (a speech model's unit). */
  readonly perMillionCharacters?: number
  /** USD per second of video made (a video model's unit). */
  readonly perVideoSecond?: number
}

/** What a call is billed by: tokens (chat, embeddings, images), or its tier's own unit. */
export const BilledUnit = Schema.Literal("tokens", "audio_minutes", "speech_characters", "video_seconds")
export type BilledUnit = typeof BilledUnit.Type

/** The tiers answered by chat completions ('ocr' is an ordinary chat tier that reads page images). */
export const chatTiers = ["cheap", "standard", "strong", "ocr"] as const
export type ChatTier = (typeof chatTiers)[number]

/**
 * Where a call's price came from: the seeded table, the `LLM_PRICES` setting, a local server
 * (free by definition), or nowhere (recorded at $0; spend ceilings cannot bound it).
 */
export const Pricing = Schema.Literal("table", "setting", "local", "unknown")
export type Pricing = typeof Pricing.Type

export const LlmCall = Schema.Struct({
  id: Schema.String,
  beingId: Schema.NullOr(Schema.String),
  projectId: Schema.NullOr(Schema.String),
  model: Schema.String,
  tier: ModelTier,
  /** Which provider served: the tier's own, or the remote default after a local failure (`fallback`). */
  provider: Schema.Literal("local", "remote"),
  baseUrl: Schema.String,
  fallback: Schema.Boolean,
  promptTokens: Schema.Int,
  completionTokens: Schema.Int,
  /** False when the server reported no usage and the tokens were counted from the text (4 characters a token). */
  usageReported: Schema.Boolean,
  costUsd: Schema.Number,
  /** The unit the call is billed in, and how much of it the call used (tokens: prompt and completion together). */
  unit: BilledUnit,
  quantity: Schema.Number,
  pricing: Pricing,
  purpose: Schema.String,
  durationMs: Schema.Int,
  createdAt: Schema.String
})
export type LlmCall = typeof LlmCall.Type

export const LlmUsage = Schema.Struct({
  /** Spent since 00:00 UTC. */
  todayUsd: Schema.Number,
  totalUsd: Schema.Number,
  calls: Schema.Int,
  byModel: Schema.Array(Schema.Struct({ model: Schema.String, calls: Schema.Int, usd: Schema.Number })),
  /** The latest calls, newest first. */
  recent: Schema.Array(LlmCall)
})
export type LlmUsage = typeof LlmUsage.Type

export const TierInference = Schema.Struct({
  tier: ModelTier,
  model: Schema.String,
  baseUrl: Schema.String,
  local: Schema.Boolean,
  keyConfigured: Schema.Boolean,
  /** A call would be made: a key is configured, or the server is local (which needs none). */
  available: Schema.Boolean,
  /** What a failed call of this local tier retries on, when `LOCAL_LLM_FALLBACK` allows one. */
  fallback: Schema.NullOr(Schema.Struct({ model: Schema.String, baseUrl: Schema.String }))
})
export type TierInference = typeof TierInference.Type

export const LlmInference = Schema.Struct({
  fallbackEnabled: Schema.Boolean,
  tiers: Schema.Array(TierInference),
  ceilings: Schema.Struct({ callUsd: Schema.Number, projectUsd: Schema.Number, dayUsd: Schema.Number })
})
export type LlmInference = typeof LlmInference.Type
