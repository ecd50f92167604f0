/** Voice's SttBinding port, read from the models' settings: where the transcribe tier sends audio, no call made. */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { ModelRoutes, type TierRoute } from "../models/contract/routes.ts"
import { SttBinding, type SttRoute } from "./voice/ports.ts"

export const SttBindingLive = Layer.effect(
  SttBinding,
  Effect.map(ModelRoutes, (routes) => {
    const routeOf = (binding: TierRoute): SttRoute => ({
      model: binding.model,
      baseUrl: binding.baseUrl,
      local: binding.local,
      usdPerMinute: binding.usdPerMinute,
      priced: binding.priced
    })
    const { binding, fallback } = routes.route("transcribe")
    const available = binding.usable
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
