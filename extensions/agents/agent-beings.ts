/**
 * The agents' `AgentBeings` port: the beings that wear their cards, written by the beings
 * repository, which tells the session cache of each write.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { AgentBeings } from "./ports.ts"
import { BeingRegistry } from "../accounts/contract/being-registry.ts"

export const AgentBeingsLive = Layer.effect(
  AgentBeings,
  Effect.map(BeingRegistry, (beings) => ({
    raise: beings.raiseAgent,
    rename: beings.renameAgent,
    release: beings.releaseAgent
  }))
)
