/**
 * The being actor as the node lists it: the entity and its quiet hours (Hush), over what others reach a being
 * through: the signal action registry, presence, the signals' reads and their changes through the actor. The entity
 * and Hush read the profile's time zone (a reference with a default: the twin binds it below them); nothing here reads
 * another feature's service, so every feature can stand on it.
 */
import * as Layer from "effect/Layer"
import { SignalActionsLive } from "./actions.ts"
import { BeingLive } from "./behaviour.ts"
import { BeingSignalsLive } from "./being-signals.ts"
import { SignalDeliveriesLive } from "./deliveries.ts"
import { HushLive } from "./hush.ts"
import { PresenceLive } from "./presence.ts"
import { SignalReadsLive } from "./signal-reads.ts"

export const beingFeature = Layer.merge(BeingLive, HushLive).pipe(
  Layer.provideMerge(
    Layer.mergeAll(
      SignalActionsLive,
      PresenceLive,
      SignalReadsLive,
      // A system or responsive raise tells the delivery listeners from here (being-signals.ts): the same registry.
      BeingSignalsLive.pipe(Layer.provideMerge(SignalDeliveriesLive))
    )
  )
)
