/**
 * What others reach a being through, as the node lists it: the signal action registry, presence,
 * the signals' reads and their changes through the actor. None reads another or anything above
 * the database and the cluster, so they stand low in the node, below every reader.
 */
import * as Layer from "effect/Layer"
import { SignalActionsLive } from "./actions.ts"
import { BeingSignalsLive } from "./being-signals.ts"
import { PresenceLive } from "./presence.ts"
import { SignalReadsLive } from "./signal-reads.ts"

export const beingServices = Layer.mergeAll(SignalActionsLive, PresenceLive, SignalReadsLive, BeingSignalsLive)
