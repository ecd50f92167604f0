/**
 * The wire shapes of the owner's model providers and tier bindings (docs/api.md, "Models"): a
 * provider is an OpenAI-compatible server with an optional key (never answered, only whether one
 * is set); a tier is bound to one provider's model. The environment's `LLM_*` bindings appear as
 * read-only providers, and the node's own demo models as a built-in one.
 */
import * as Schema from "effect/Schema"
import { ModelTier } from "./records.ts"

/** Where a provider or a tier's binding comes from. */
export const ProviderSource = Schema.Literal("settings", "environment", "builtin")
export type ProviderSource = typeof ProviderSource.Type

/** The id of the node's own demo models, the built-in provider (demo/). */
export const DEMO_PROVIDER_ID = "demo"
/** The one model the demo provider serves, for every tier. */
export const DEMO_MODEL = "demo"

export const LlmProvider = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  baseUrl: Schema.String,
  hasKey: Schema.Boolean,
  /** A server on this machine or network: text sent to it does not leave the host's reach. */
  local: Schema.Boolean,
  source: ProviderSource,
  /** The models its last check listed; null before any check. */
  models: Schema.NullOr(Schema.Array(Schema.String)),
  checkedAt: Schema.NullOr(Schema.String),
  /** Why its last check failed; null when it passed or never ran. */
  error: Schema.NullOr(Schema.String)
})
export type LlmProvider = typeof LlmProvider.Type

/** An http(s) URL without credentials in it (a key goes in `apiKey`, where it is sealed). */
const BaseUrl = Schema.Trim.pipe(
  Schema.maxLength(2000),
  Schema.filter(
    (text) => {
      try {
        const url = new URL(text)
        return (url.protocol === "http:" || url.protocol === "https:") && url.username === "" && url.password === ""
      } catch {
        return false
      }
    },
    { message: () => "baseUrl must be an http:// or https:// URL with no user or password in it" }
  )
)

const Name = Schema.Trim.pipe(Schema.minLength(1), Schema.maxLength(80))
const ApiKey = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(4096))

export const NewProvider = Schema.Struct({ name: Name, baseUrl: BaseUrl, apiKey: Schema.optional(ApiKey) })
export type NewProvider = typeof NewProvider.Type

/** A change: each field given is changed; an `apiKey` of null removes the key. */
export const ProviderChange = Schema.Struct({
  name: Schema.optional(Name),
  baseUrl: Schema.optional(BaseUrl),
  apiKey: Schema.optional(Schema.NullOr(ApiKey))
})
export type ProviderChange = typeof ProviderChange.Type

export const ProviderPath = Schema.Struct({ id: Schema.String.pipe(Schema.maxLength(100)) })

export const ProviderRemoved = Schema.Struct({ id: Schema.String })

export const ProviderCheck = Schema.Struct({
  ok: Schema.Boolean,
  models: Schema.Array(Schema.String),
  latencyMs: Schema.Int,
  error: Schema.NullOr(Schema.String)
})
export type ProviderCheck = typeof ProviderCheck.Type

export const DetectedServer = Schema.Struct({ baseUrl: Schema.String, models: Schema.Array(Schema.String) })
export const DetectedServers = Schema.Struct({ found: Schema.Array(DetectedServer) })
export type DetectedServers = typeof DetectedServers.Type

export const TierSource = Schema.Literal("settings", "environment", "none")

export const TierState = Schema.Struct({
  tier: ModelTier,
  /** The provider its calls go to; null when nothing can be called (`source: "none"`). */
  providerId: Schema.NullOr(Schema.String),
  model: Schema.NullOr(Schema.String),
  source: TierSource,
  local: Schema.Boolean,
  /** Text of this tier's calls goes to a server off this machine and its network. */
  leavesHost: Schema.Boolean,
  spentTodayUsd: Schema.Number,
  spentMonthUsd: Schema.Number,
  /** The day's spend ceiling of the whole node (SPEND_MAX_DAY_USD), which this tier's calls count against. */
  ceilingUsd: Schema.Number,
  /** Something the owner should know of the binding (a model its provider does not list); null when none. */
  warning: Schema.NullOr(Schema.String)
})
export type TierState = typeof TierState.Type

export const TierPath = Schema.Struct({ tier: ModelTier })

export const BindTier = Schema.Struct({
  providerId: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100)),
  model: Schema.Trim.pipe(Schema.minLength(1), Schema.maxLength(200))
})
export type BindTier = typeof BindTier.Type
