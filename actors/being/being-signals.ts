/** The being's `BeingSignals` (contract/being-signals.ts): each change a message to that being's actor. */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { refusedWhenBusy } from "../../kernel/actors/busy.ts"
import { BeingSignals } from "./contract/being-signals.ts"
import { Being } from "./protocol.ts"

/** A being's signals are its desktop, so that is what a full mailbox names. */
const busy = refusedWhenBusy("This desktop")

export const BeingSignalsLive = Layer.effect(
  BeingSignals,
  Effect.map(Being.client, (being) => ({
    raise: (beingId, raise) => busy(being(beingId).RaiseSignal(raise)),
    release: (beingId, signalId) => busy(being(beingId).ReleaseSignal({ signalId })),
    answer: (beingId, signalId, optionId) => busy(being(beingId).AnswerSignal({ signalId, optionId })),
    dismiss: (beingId, signalId) => busy(being(beingId).DismissSignal({ signalId }))
  }))
)
