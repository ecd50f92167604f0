/**
 * The being actor as the node lists it: the entity with the actions a signal's answer runs, its quiet hours (Hush),
 * presence and the signals' reads. None of them reads another feature, so every feature can stand on them.
 */
import * as Layer from "effect/Layer"
import { SignalActions } from "./actions.ts"
import { BeingLive } from "./behaviour.ts"
import { HushLive } from "./hush.ts"
import { PresenceLive } from "./presence.ts"
import { SignalReadsLive } from "./signal-reads.ts"

export const beingFeature = Layer.mergeAll(BeingLive, HushLive, PresenceLive, SignalReadsLive).pipe(
  Layer.provideMerge(SignalActions.layer)
)
