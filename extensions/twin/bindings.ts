/**
 * The twin's TwinBindings port, read from the models' settings: how the embed and cheap tiers resolve, no call made.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { ModelRoutes } from "../models/contract/routes.ts"
import { TwinBindings } from "./ports.ts"

export const TwinBindingsLive = Layer.effect(
  TwinBindings,
  Effect.map(ModelRoutes, (routes) => {
    const embed = routes.route("embed")
    return {
      embed: {
        available: embed.binding.usable,
        model: embed.binding.model,
        leavesDevice: !embed.binding.local || embed.fallback !== null
      },
      cheapAvailable: routes.route("cheap").binding.usable
    }
  })
)
