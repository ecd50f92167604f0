/**
 * Voice's SttBinding port, read from the models' routes: where the transcribe tier sends audio, no
 * call made. Read at each use (getters), so a binding changed in Settings → Models shows at once.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { ModelRoutes, type TierRoute } from "../models/contract/routes.ts"
import { SttBinding, type SttBindingShape, type SttRoute } from "./voice/ports.ts"

const routeOf = (binding: TierRoute): SttRoute => ({
  model: binding.model,
  baseUrl: binding.baseUrl,
  local: binding.local,
  usdPerMinute: binding.usdPerMinute,
  priced: binding.priced
})

export const SttBindingLive = Layer.effect(
  SttBinding,
  Effect.map(
    ModelRoutes,
    (routes): SttBindingShape => ({
      get route() {
        return routeOf(routes.route("transcribe").binding)
      },
      get fallback() {
        const { fallback } = routes.route("transcribe")
        return fallback === null ? null : routeOf(fallback)
      },
      get available() {
        return routes.route("transcribe").binding.usable
      },
      get reason() {
        const { binding } = routes.route("transcribe")
        return binding.usable
          ? null
          : `No transcription model can be called: ${binding.baseUrl} needs a key. To call one, ${binding.remedy}.`
      }
    })
  )
)
