/** The twin's TwinBindings port, read from the models' settings: how the embed and cheap tiers resolve, no call made. */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { bindingOf, fallbackOf, isUsable } from "../models/bindings.ts"
import { ModelSettings } from "../models/settings.ts"
import { TwinBindings } from "./ports.ts"

export const TwinBindingsLive = Layer.effect(
  TwinBindings,
  Effect.map(ModelSettings, (settings) => {
    const embed = bindingOf(settings, "embed")
    return {
      embed: {
        available: isUsable(embed),
        model: embed.model,
        leavesDevice: !embed.local || fallbackOf(settings, embed) !== null
      },
      cheapAvailable: isUsable(bindingOf(settings, "cheap"))
    }
  })
)
