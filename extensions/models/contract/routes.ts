/**
 * What another feature reads of the models before (or instead of) calling one: where a tier's
 * calls go, the day's spend against its ceiling, and a scanned page read by the ocr tier.
 * extensions/models/routes.ts provides it from the models' settings, ledger and Models.
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { ModelCallFailed, SpendCeilingReached } from "./errors.ts"
import type { ModelTier } from "./records.ts"

/** Where one binding sends a tier's calls; no call made. */
export interface TierRoute {
  readonly model: string
  readonly baseUrl: string
  /** A server on this machine or network: nothing leaves the node's reach. */
  readonly local: boolean
  /** It can be called: a local server, or a key is set. */
  readonly usable: boolean
  /** What a person does to make it callable or move it ("bind the tier in Settings → Models…"), for messages. */
  readonly remedy: string
  /** USD per minute of audio (0 when not priced), and whether its price is known. */
  readonly usdPerMinute: number
  readonly priced: boolean
}

/** Who a page read is charged to, as every model call names it. */
export interface Charged {
  readonly purpose: string
  readonly beingId: string | null
  readonly projectId: string | null
}

export interface ModelRoutesShape {
  /** A tier's binding, and the one its calls fall back to when there is one. */
  readonly route: (tier: ModelTier) => { readonly binding: TierRoute; readonly fallback: TierRoute | null }
  /** Whether the node's model key is set. */
  readonly keyConfigured: boolean
  /** Whether some tier is bound to the node's demo models now, whose writing is placeholder text. */
  readonly demoBound: () => boolean
  /** Spent on the whole node during the UTC day that holds now, and the day's ceiling. */
  readonly spentToday: Effect.Effect<number>
  readonly dayCeilingUsd: number
  /** One scanned page (PNG) transcribed by the 'ocr' tier; null when no ocr model is bound. */
  readonly readPage: (
    charged: Charged,
    png: Uint8Array
  ) => Effect.Effect<string | null, ModelCallFailed | SpendCeilingReached>
}

export class ModelRoutes extends Context.Tag("models/ModelRoutes")<ModelRoutes, ModelRoutesShape>() {}
