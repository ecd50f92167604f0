/**
 * The twin's TwinBindings port, read from the models' routes: how the embed and cheap tiers
 * resolve, no call made. Read at each use (getters), so a binding changed in Settings → Models
 * shows at once.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { ModelRoutes } from "../models/contract/routes.ts"
import { TwinBindings, type TwinBindingsShape } from "./ports.ts"

export const TwinBindingsLive = Layer.effect(
  TwinBindings,
  Effect.map(
    ModelRoutes,
    (routes): TwinBindingsShape => ({
      get embed() {
        const embed = routes.route("embed")
        return {
          available: embed.binding.usable,
          model: embed.binding.model,
          leavesDevice: !embed.binding.local || embed.fallback !== null
        }
      },
      get cheapAvailable() {
        return routes.route("cheap").binding.usable
      }
    })
  )
)
