/**
 * How each tier resolves to a model, a base URL and a key. One default binding serves every tier
 * (`LLM_BASE_URL`, `LLM_API_KEY`, `LLM_MODEL`); `LLM_<TIER>_*` overrides a part of it for one tier.
 * A tier with its own base URL never inherits `LLM_API_KEY`, so the default provider's key is
 * never sent to another server.
 */
import * as Option from "effect/Option"
import type * as Redacted from "effect/Redacted"
import type { ModelSettingsShape } from "./settings.ts"
import { isLocalBaseUrl } from "./local-address.ts"
import { chatTiers, type ModelTier, type TierInference } from "./contract/records.ts"

export const defaultBaseUrl = "https://api.openai.com/v1"

/** Each tier's model when no setting names one: the default provider's models for each job. */
export const defaultTierModels: { readonly [T in ModelTier]: string } = {
  cheap: "gpt-4.1-mini",
  standard: "gpt-4.1",
  strong: "o3",
  ocr: "gpt-4.1-mini",
  embed: "text-embedding-3-small",
  image: "gpt-image-1",
  transcribe: "gpt-4o-mini-transcribe",
  speech: "gpt-4o-mini-tts",
  video: "sora-2"
}

export interface Binding {
  readonly tier: ModelTier
  readonly model: string
  readonly baseUrl: string
  readonly apiKey: Option.Option<Redacted.Redacted>
  readonly local: boolean
  /** The settings a reader would change to point this tier elsewhere or key it, for error messages. */
  readonly baseUrlSetting: string
  readonly apiKeySetting: string
}

export const isChatTier = (tier: ModelTier) => (chatTiers as ReadonlyArray<ModelTier>).includes(tier)

/** The default binding for a tier: what it resolves to with no `LLM_<TIER>_*` setting. */
const defaultBinding = (settings: ModelSettingsShape, tier: ModelTier): Binding => {
  const baseUrl = Option.getOrElse(settings.llmBaseUrl, () => defaultBaseUrl)
  // LLM_MODEL names one model for every chat tier; embeddings, images and audio need models of their kind.
  const model = isChatTier(tier)
    ? Option.getOrElse(settings.llmModel, () => defaultTierModels[tier])
    : defaultTierModels[tier]
  return {
    tier,
    model,
    baseUrl,
    apiKey: settings.llmApiKey,
    local: Option.getOrElse(settings.llmLocal, () => isLocalBaseUrl(baseUrl)),
    baseUrlSetting: "LLM_BASE_URL",
    apiKeySetting: "LLM_API_KEY"
  }
}

export const bindingOf = (settings: ModelSettingsShape, tier: ModelTier): Binding => {
  const own = settings.llmTiers[tier]
  const base = defaultBinding(settings, tier)
  const baseUrl = Option.getOrElse(own.baseUrl, () => base.baseUrl)
  const ownServer = Option.isSome(own.baseUrl)
  return {
    tier,
    model: Option.getOrElse(own.model, () => base.model),
    baseUrl,
    apiKey: ownServer ? own.apiKey : Option.orElse(own.apiKey, () => base.apiKey),
    local: Option.getOrElse(own.local, () => (ownServer ? isLocalBaseUrl(baseUrl) : base.local)),
    baseUrlSetting: ownServer ? `LLM_${tier.toUpperCase()}_BASE_URL` : base.baseUrlSetting,
    apiKeySetting: ownServer ? `LLM_${tier.toUpperCase()}_API_KEY` : base.apiKeySetting
  }
}

/** A local server needs no key; a remote provider does. */
export const isUsable = (binding: Binding) => binding.local || Option.isSome(binding.apiKey)

/**
 * What a failed call of a local tier retries on: the tier's default binding, only when
 * `LOCAL_LLM_FALLBACK` is set and that binding is a remote provider with a key. Without the
 * setting a local tier never sends its text off the host.
 */
export const fallbackOf = (settings: ModelSettingsShape, binding: Binding): Binding | null => {
  if (!settings.localLlmFallback || !binding.local) return null
  const remote = defaultBinding(settings, binding.tier)
  return remote.local || Option.isNone(remote.apiKey) ? null : remote
}

export const inferenceOf = (settings: ModelSettingsShape, tier: ModelTier): TierInference => {
  const binding = bindingOf(settings, tier)
  const fallback = fallbackOf(settings, binding)
  return {
    tier,
    model: binding.model,
    baseUrl: binding.baseUrl,
    local: binding.local,
    keyConfigured: Option.isSome(binding.apiKey),
    available: isUsable(binding),
    fallback: fallback === null ? null : { model: fallback.model, baseUrl: fallback.baseUrl }
  }
}
