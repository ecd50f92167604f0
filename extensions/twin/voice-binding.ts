/** Voice's SttBinding port, read from the models' settings: where the transcribe tier sends audio, no call made. */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { bindingOf, fallbackOf, isUsable, type Binding } from "../models/bindings.ts"
import { priceOf } from "../models/prices.ts"
import { ModelSettings } from "../models/settings.ts"
import { SttBinding, type SttRoute } from "./voice/ports.ts"

export const SttBindingLive = Layer.effect(
  SttBinding,
  Effect.map(ModelSettings, (settings) => {
    const routeOf = (binding: Binding): SttRoute => {
      const priced = priceOf(settings.llmPrices, binding)
      return {
        model: binding.model,
        baseUrl: binding.baseUrl,
        local: binding.local,
        usdPerMinute: priced.price.perMinute ?? 0,
        priced: priced.pricing !== "unknown"
      }
    }
    const binding = bindingOf(settings, "transcribe")
    const fallback = fallbackOf(settings, binding)
    const available = isUsable(binding)
    return {
      route: routeOf(binding),
      fallback: fallback === null ? null : routeOf(fallback),
      available,
      reason: available
        ? null
        : `No transcription model can be called: ${binding.baseUrl} needs a key. Set ${binding.apiKeySetting}, ` +
          `or set ${binding.baseUrlSetting} to a local speech-to-text server, which needs none.`
    }
  })
)
