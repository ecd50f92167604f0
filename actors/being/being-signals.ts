/**
 * The being's `BeingSignals` (contract/being-signals.ts). A proactive raise, a release, an answer and a dismissal are
 * each a message to that being's actor, which serialises them (the day's cap counts proactive raises one at a time).
 * A `system` or `responsive` raise needs none of that order: its stamp reads nothing (`decideUnasked`), so it is
 * written and published here, in the caller's fiber, without the actor's round trip; it is committed before it is
 * published, so an answer or a dismissal through the actor finds it (docs/decisions.md "A raise at the cost of its
 * row").
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { refusedWhenBusy } from "../../kernel/actors/busy.ts"
import { nowMillis } from "../../kernel/time.ts"
import { BeingSignals } from "./contract/being-signals.ts"
import { decideUnasked } from "./gate.ts"
import { Being } from "./protocol.ts"
import { raiseWriter } from "./raise.ts"
import { SignalsRepository } from "./signals-repository.ts"

/** A being's signals are its desktop, so that is what a full mailbox names. */
const busy = refusedWhenBusy("This desktop")

export const BeingSignalsLive = Layer.effect(
  BeingSignals,
  Effect.gen(function* () {
    const being = yield* Being.client
    const write = yield* raiseWriter
    return {
      raise: (beingId, raise) =>
        raise.trigger === "proactive"
          ? busy(being(beingId).RaiseSignal(raise))
          : Effect.flatMap(nowMillis, (now) =>
              write(beingId, raise, decideUnasked({ beingId, trigger: raise.trigger, holdUntil: raise.holdUntil }, now))
            ),
      release: (beingId, signalId) => busy(being(beingId).ReleaseSignal({ signalId })),
      answer: (beingId, signalId, optionId) => busy(being(beingId).AnswerSignal({ signalId, optionId })),
      dismiss: (beingId, signalId) => busy(being(beingId).DismissSignal({ signalId }))
    }
  })
).pipe(Layer.provide(SignalsRepository.Default))
