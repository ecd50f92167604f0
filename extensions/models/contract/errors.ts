/**
 * Why a model call did not happen or did not succeed. Each message says what a person can do;
 * `toApiError` turns them into the named refusals a route answers with (codes in docs/api.md).
 */
import * as Data from "effect/Data"
import { refusal } from "../../../kernel/contract/errors.ts"
import type { LlmCall, ModelTier } from "./records.ts"

/** No key and no local server for the tier: refused at once, before any network. */
export class ModelsUnavailable extends Data.TaggedError("ModelsUnavailable")<{
  readonly tier: ModelTier
  readonly message: string
}> {}

export type Ceiling = "call" | "project" | "day"

/** A spend ceiling refused the call before it was made (and raised an alert on the owner's desktop). */
export class SpendCeilingReached extends Data.TaggedError("SpendCeilingReached")<{
  readonly ceiling: Ceiling
  readonly limitUsd: number
  readonly spentUsd: number
  readonly estimateUsd: number
  readonly message: string
}> {}

/** The provider was asked and failed: unreachable, timed out, or answered an error. */
export class ModelCallFailed extends Data.TaggedError("ModelCallFailed")<{
  readonly tier: ModelTier
  readonly model: string
  readonly baseUrl: string
  /** The provider's HTTP status; null when it never answered. */
  readonly status: number | null
  readonly message: string
}> {}

/** A call that asked for JSON got text that is not JSON. The call was made and recorded. */
export class ModelReplyNotJson extends Data.TaggedError("ModelReplyNotJson")<{
  readonly text: string
  readonly call: LlmCall
  readonly message: string
}> {}

export type ModelError = ModelsUnavailable | SpendCeilingReached | ModelCallFailed | ModelReplyNotJson

/** No model can be called for the tier (no key, no local server): nothing left the node. */
export class NoModelToCall extends refusal(503, "NoModelToCall", "models_unavailable") {}

/** A spend ceiling (call, project or day) refused the call before it was made. */
export class OverSpendCeiling extends refusal(409, "OverSpendCeiling", "spend_ceiling_reached") {}

/** The provider was asked and failed: unreachable, timed out, or answered an error. */
export class ModelFailed extends refusal(503, "ModelFailed", "model_failed") {}

/** A call that asked for JSON got text that is not JSON. */
export class ModelReplyUnreadable extends refusal(503, "ModelReplyUnreadable", "model_reply_not_json") {}

/** A model call's refusal, as a route answers it. */
export type ModelRefusal = NoModelToCall | OverSpendCeiling | ModelFailed | ModelReplyUnreadable

export const toApiError = (error: ModelError): ModelRefusal => {
  switch (error._tag) {
    case "ModelsUnavailable":
      return new NoModelToCall({ message: error.message, details: { tier: error.tier } })
    case "SpendCeilingReached":
      return new OverSpendCeiling({
        message: error.message,
        details: {
          ceiling: error.ceiling,
          limitUsd: error.limitUsd,
          spentUsd: error.spentUsd,
          estimateUsd: error.estimateUsd
        }
      })
    case "ModelCallFailed":
      return new ModelFailed({
        message: error.message,
        details: { tier: error.tier, status: error.status }
      })
    case "ModelReplyNotJson":
      return new ModelReplyUnreadable({ message: error.message })
  }
}

/** A provider id that names none of the node's providers. */
export class ProviderNotFound extends refusal(404, "ProviderNotFound", "provider_not_found") {}

/** Removing a provider a tier is bound to: bind the tier elsewhere first. */
export class ProviderInUse extends refusal(409, "ProviderInUse", "provider_in_use") {}

/** Changing a provider of the environment or the built-in one: they are read-only here. */
export class ProviderReadOnly extends refusal(409, "ProviderReadOnly", "provider_read_only") {}
