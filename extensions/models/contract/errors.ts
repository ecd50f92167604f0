/**
 * Why a model call did not happen or did not succeed. Each message says what a person can do;
 * `toApiError` turns them into the ApiErrors a route answers with (codes in docs/api.md).
 */
import * as Data from "effect/Data"
import { Conflict, Unavailable, type ApiError } from "../../../kernel/contract/errors.ts"
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

export const toApiError = (error: ModelError): ApiError => {
  switch (error._tag) {
    case "ModelsUnavailable":
      return new Unavailable({ error: "models_unavailable", message: error.message, details: { tier: error.tier } })
    case "SpendCeilingReached":
      return new Conflict({
        error: "spend_ceiling_reached",
        message: error.message,
        details: {
          ceiling: error.ceiling,
          limitUsd: error.limitUsd,
          spentUsd: error.spentUsd,
          estimateUsd: error.estimateUsd
        }
      })
    case "ModelCallFailed":
      return new Unavailable({
        error: "model_failed",
        message: error.message,
        details: { tier: error.tier, status: error.status }
      })
    case "ModelReplyNotJson":
      return new Unavailable({ error: "model_reply_not_json", message: error.message })
  }
}
