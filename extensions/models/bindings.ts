/**
 * How each tier resolves to a model, a base URL and a key. A tier the owner bound in Settings →
 * Models (provider-bindings.ts keeps them) wins; otherwise the environment's: one default binding
 * serves every tier (`LLM_BASE_URL`, `LLM_API_KEY`, `LLM_MODEL`), `LLM_<TIER>_*` overrides a part
 * of it for one tier, and `LLM_DEMO` binds every tier to the node's own demo models. A tier with
 * its own base URL never inherits `LLM_API_KEY`, so the default provider's key is never sent to
 * another server.
 */
import * as Option from "effect/Option"
import type * as Redacted from "effect/Redacted"
import type { ModelSettingsShape } from "./settings.ts"
import { isLocalBaseUrl } from "./local-address.ts"
import { chatTiers, modelTiers, type ModelTier, type TierInference } from "./contract/records.ts"
import { DEMO_MODEL, DEMO_PROVIDER_ID } from "./contract/providers.ts"
import type { OwnerBindings } from "./provider-bindings.ts"
import { DEMO_BASE_URL } from "./demo/demo-fetch.ts"

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

/** The environment's providers as the owner sees them: the default server, and a tier's own. */
export const ENVIRONMENT_PROVIDER_ID = "environment"
export const environmentProviderId = (tier: ModelTier) => `environment-${tier}`

export interface Binding {
  readonly tier: ModelTier
  readonly model: string
  readonly baseUrl: string
  readonly apiKey: Option.Option<Redacted.Redacted>
  readonly local: boolean
  /** The provider its calls go to (a Settings provider's id, `environment…`, or `demo`). */
  readonly providerId: string
  /** Bound in Settings → Models, or by the environment's settings. */
  readonly source: "settings" | "environment"
  /** Served by the node itself (the demo models): no socket is opened. */
  readonly builtin: boolean
  /** What a person does to make it callable or move it, for error messages. */
  readonly remedy: string
}

export const isChatTier = (tier: ModelTier) => (chatTiers as ReadonlyArray<ModelTier>).includes(tier)

const settingsRemedy = "bind the tier in Settings → Models"

/** The environment's default binding for a tier: what it resolves to with no `LLM_<TIER>_*` setting. */
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
    providerId: ENVIRONMENT_PROVIDER_ID,
    source: "environment",
    builtin: false,
    // Nothing in the environment chose a server: the web app is where a person binds one. A server the
    // environment named needs its key there too.
    remedy: Option.isNone(settings.llmBaseUrl)
      ? `${settingsRemedy} (a provider with its key, a local server or the demo models)`
      : `${settingsRemedy}, or set LLM_API_KEY` +
        // A tier with its own endpoint is often served elsewhere than chat: say how to bind it alone.
        (isChatTier(tier) ? "" : ` (LLM_${tier.toUpperCase()}_BASE_URL and _API_KEY for this tier alone)`)
  }
}

/** The node's own demo models for a tier: local by construction, nothing leaves the host. */
const demoBinding = (tier: ModelTier, source: Binding["source"]): Binding => ({
  tier,
  model: DEMO_MODEL,
  baseUrl: DEMO_BASE_URL,
  apiKey: Option.none(),
  local: true,
  providerId: DEMO_PROVIDER_ID,
  source,
  builtin: true,
  remedy: settingsRemedy
})

/** The environment's binding of a tier: `LLM_DEMO`, else its own `LLM_<TIER>_*` over the default. */
export const environmentBinding = (settings: ModelSettingsShape, tier: ModelTier): Binding => {
  if (settings.llmDemo) return demoBinding(tier, "environment")
  const own = settings.llmTiers[tier]
  const base = defaultBinding(settings, tier)
  const baseUrl = Option.getOrElse(own.baseUrl, () => base.baseUrl)
  const ownServer = Option.isSome(own.baseUrl)
  return {
    ...base,
    model: Option.getOrElse(own.model, () => base.model),
    baseUrl,
    apiKey: ownServer ? own.apiKey : Option.orElse(own.apiKey, () => base.apiKey),
    local: Option.getOrElse(own.local, () => (ownServer ? isLocalBaseUrl(baseUrl) : base.local)),
    providerId: ownServer ? environmentProviderId(tier) : ENVIRONMENT_PROVIDER_ID,
    remedy: ownServer
      ? `${settingsRemedy}, or set LLM_${tier.toUpperCase()}_API_KEY (or LLM_${tier.toUpperCase()}_BASE_URL to a local server, which needs none)`
      : base.remedy
  }
}

/**
 * A tier's binding: the owner's from Settings when there is one whose provider still exists, else
 * the environment's. A tier bound to an environment provider takes that server with the model named.
 */
export const bindingOf = (settings: ModelSettingsShape, owned: OwnerBindings, tier: ModelTier): Binding => {
  const chosen = owned.tiers.get(tier)
  if (chosen === undefined) return environmentBinding(settings, tier)
  if (chosen.providerId === DEMO_PROVIDER_ID) return demoBinding(tier, "settings")
  const provider = owned.providers.get(chosen.providerId)
  if (provider !== undefined)
    return {
      tier,
      model: chosen.model,
      baseUrl: provider.baseUrl,
      apiKey: provider.apiKey,
      local: isLocalBaseUrl(provider.baseUrl),
      providerId: provider.id,
      source: "settings",
      builtin: false,
      remedy: `add ${provider.name}'s key in Settings → Models, or ${settingsRemedy} to a local server`
    }
  const environment = environmentServer(settings, chosen.providerId)
  return environment === null
    ? environmentBinding(settings, tier)
    : { ...environment, tier, model: chosen.model, source: "settings" }
}

/** The environment's server an `environment…` provider id names, as a binding of its own tier. */
export const environmentServer = (settings: ModelSettingsShape, providerId: string): Binding | null => {
  if (providerId === ENVIRONMENT_PROVIDER_ID) return defaultBinding(settings, "standard")
  const tier = tierOfEnvironmentId(providerId)
  return tier === null || Option.isNone(settings.llmTiers[tier].baseUrl) ? null : environmentBinding(settings, tier)
}

const tierOfEnvironmentId = (providerId: string): ModelTier | null => {
  const tier = providerId.startsWith("environment-") ? providerId.slice("environment-".length) : ""
  return (modelTiers as ReadonlyArray<string>).includes(tier) ? (tier as ModelTier) : null
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

export const inferenceOf = (settings: ModelSettingsShape, owned: OwnerBindings, tier: ModelTier): TierInference => {
  const binding = bindingOf(settings, owned, tier)
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
