/**
 * The steps every model call takes (resolve the tier, check the ceilings, call, record), as the
 * tiers with their own endpoint (speech.ts, video.ts, transcription.ts) get them from models.ts,
 * which makes them once (call-steps.ts).
 */
import type * as Effect from "effect/Effect"
import type OpenAI from "openai"
import type { Binding } from "./bindings.ts"
import type { CallContext } from "./contract/chat.ts"
import type { ModelCallFailed, ModelsUnavailable, SpendCeilingReached } from "./contract/errors.ts"
import type { BilledUnit, LlmCall, ModelPrice, ModelTier } from "./contract/records.ts"
import type { Priced } from "./prices.ts"
import type { ModelSettingsShape } from "./settings.ts"

/** One attempt at a binding: which binding, whether it is the fallback, and how it is priced. */
export interface Attempt {
  readonly binding: Binding
  readonly fallback: boolean
  readonly priced: Priced
  readonly startedAt: number
}

export type Usage = { readonly promptTokens: number; readonly completionTokens: number }

/** What a tier that bills in its own unit used of it, and what that cost beside any tokens. */
export interface Billed {
  readonly unit: BilledUnit
  readonly quantity: number
  readonly costUsd: number
}

export interface CallTools {
  readonly settings: ModelSettingsShape
  /** The tier's binding, or `ModelsUnavailable` saying what to set, before any network. */
  readonly usableBinding: (tier: ModelTier) => Effect.Effect<Binding, ModelsUnavailable>
  /** The primary attempt; on a failed local call, once more on the remote default if allowed. */
  readonly withFallback: <A>(
    primary: Binding,
    attempt: (binding: Binding, fallback: boolean) => Effect.Effect<A, ModelCallFailed | SpendCeilingReached>
  ) => Effect.Effect<A, ModelCallFailed | SpendCeilingReached>
  /** Prices the attempt, then checks the ceilings against its estimated cost. */
  readonly beginPriced: (
    binding: Binding,
    fallback: boolean,
    estimate: (price: ModelPrice) => number,
    context: CallContext
  ) => Effect.Effect<Attempt, SpendCeilingReached>
  readonly record: (
    attempt: Attempt,
    context: CallContext,
    usage: Usage | null,
    counted: Usage,
    billedIn?: (price: ModelPrice) => Billed
  ) => Effect.Effect<LlmCall>
  readonly clientFor: (binding: Binding) => Promise<OpenAI>
  readonly failureOf: (binding: Binding) => (error: unknown) => ModelCallFailed
}
