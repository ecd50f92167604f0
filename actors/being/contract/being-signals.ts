/**
 * A being's signals as they change: each proactive raise, release, answer and dismissal is a
 * message to that being's actor, which serialises them and puts each raise through the hush gate;
 * a system or responsive raise passes the gate without the actor (its stamp reads nothing). The
 * desktop's `Signals` (extensions/desktop/contract/signals.ts) calls this; reads are
 * contract/signal-reads.ts. Implemented in actors/being/being-signals.ts; a full mailbox is the
 * kernel's 503 `busy`, named as the being's desktop.
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { ActorBusy } from "../../../kernel/contract/actor-errors.ts"
import type { ActionFailed, SignalClosed, SignalNotFound, UnknownOption } from "./errors.ts"
import type { EvidenceRef, GateStamp, GateTrigger } from "./hush.ts"
import type { Signal, SignalInput } from "./signal.ts"

export interface BeingSignalsShape {
  /** Through the gate with its trigger; `holdUntil` asks for a later delivery. */
  readonly raise: (
    beingId: string,
    raise: {
      readonly input: SignalInput
      readonly source: string
      readonly trigger: GateTrigger
      readonly holdUntil: string | null
      readonly evidence: ReadonlyArray<EvidenceRef>
    }
  ) => Effect.Effect<{ readonly signal: Signal; readonly delivered: boolean; readonly gate: GateStamp }, ActorBusy>
  /** Lets a held signal through; false when it was not held any more. */
  readonly release: (beingId: string, signalId: string) => Effect.Effect<boolean, ActorBusy>
  readonly answer: (
    beingId: string,
    signalId: string,
    optionId: string
  ) => Effect.Effect<Signal, SignalNotFound | SignalClosed | UnknownOption | ActionFailed | ActorBusy>
  readonly dismiss: (
    beingId: string,
    signalId: string
  ) => Effect.Effect<Signal, SignalNotFound | SignalClosed | ActorBusy>
}

export class BeingSignals extends Context.Tag("being/BeingSignals")<BeingSignals, BeingSignalsShape>() {}
