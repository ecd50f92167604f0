/** The being's `Presence` (contract/presence.ts) over its sockets' rows. */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { Presence } from "./contract/presence.ts"
import { BeingSocketsRepository } from "./being-sockets-repository.ts"

export const PresenceLive = Layer.effect(
  Presence,
  Effect.map(BeingSocketsRepository, (sockets) => ({
    onlineIds: sockets.onlineIds,
    isOnline: sockets.isOnline,
    onlineBeings: sockets.onlineBeings
  }))
).pipe(Layer.provide(BeingSocketsRepository.Default))
