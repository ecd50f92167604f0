/**
 * The desktop's binding of the `Signals` contract tag (contract/signals.ts): the one path every
 * raiser takes (the node's own features, the owner's raise route, the `signals` capability of
 * plugins). Raises, answers and dismissals go through the being's `BeingSignals`, which puts
 * each raise through the gate (a proactive one, answers and dismissals serialised by the being's actor); reads come from its
 * `SignalReads`. The actor's refusals become the desktop's own (contract/errors.ts) here.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { SignalInput, type RaisedSignal, type SignalStatus } from "../../actors/being/contract/signal.ts"
import { BeingSignals } from "../../actors/being/contract/being-signals.ts"
import { SignalReads } from "../../actors/being/contract/signal-reads.ts"
import type { ActorBusy } from "../../kernel/contract/actor-errors.ts"
import type { Page } from "../../kernel/contract/page.ts"
import type { GateTrigger } from "../../actors/being/contract/hush.ts"
import { Scheduler } from "../time/contract/scheduler.ts"
import { BeingRegistry } from "../accounts/contract/being-registry.ts"
import {
  NoOwnerDesktop,
  NoSuchSignal,
  SignalActionFailed,
  SignalAlreadyClosed,
  SignalInvalid,
  SignalOptionUnknown
} from "./contract/errors.ts"
import { RELEASE_JOB, Signals, type RaiseOptions, type SignalsShape } from "./contract/signals.ts"
import { spanNamed } from "../../kernel/spans.ts"

/** A caller's input that breaks the limits (a title too long from a model, say) is refused, not a defect. */
const validInput = Schema.validate(SignalInput)
const checkInput = (input: SignalInput) =>
  validInput(input).pipe(
    Effect.mapError(
      (error) =>
        new SignalInvalid({
          message: `The signal breaks a limit: ${ParseResult.TreeFormatter.formatErrorSync(error)}`,
          details: ParseResult.ArrayFormatter.formatErrorSync(error)
        })
    )
  )

const refusals = {
  SignalNotFound: () => Effect.fail(new NoSuchSignal({ message: "You have no signal with that id." })),
  SignalClosed: ({ status }: { readonly status: SignalStatus }) =>
    Effect.fail(new SignalAlreadyClosed({ message: `This signal is already ${status}.`, details: { status } }))
}

const make = Effect.gen(function* () {
  const accounts = yield* BeingRegistry
  const being = yield* BeingSignals
  const store = yield* SignalReads
  const scheduler = yield* Scheduler

  /** Lets a held signal through; repeatable (a second release finds it released). */
  const release = (beingId: string, signalId: string) =>
    being.release(beingId, signalId).pipe(spanNamed("desktop.releaseSignal"))

  yield* scheduler.register(RELEASE_JOB, (job) => {
    const { signalId } = job.payload as { readonly signalId: string }
    return job.beingId === null ? Effect.void : release(job.beingId, signalId)
  })

  /**
   * Raises a signal on one being's desktop through the hush gate; `source` says who raised it,
   * `trigger` on whose initiative. A held signal is released by the scheduler at its time.
   */
  const raise = (
    beingId: string,
    input: SignalInput,
    source: string,
    trigger: GateTrigger,
    options: RaiseOptions = {}
  ): Effect.Effect<RaisedSignal, SignalInvalid | ActorBusy> =>
    Effect.gen(function* () {
      const valid = yield* checkInput(input)
      const outcome = yield* being.raise(beingId, {
        input: valid,
        source,
        trigger,
        holdUntil: options.holdUntil ?? null,
        evidence: options.evidence ?? []
      })
      if (outcome.gate.heldUntil !== null && outcome.gate.decision === "held") {
        yield* scheduler.schedule({
          key: `${RELEASE_JOB}:${outcome.signal.id}`,
          kind: RELEASE_JOB,
          beingId,
          dueAt: new Date(outcome.gate.heldUntil),
          payload: { signalId: outcome.signal.id }
        })
      }
      return { signal: outcome.signal, delivered: outcome.delivered }
    }).pipe(spanNamed("desktop.raiseSignal"))

  /** Raises on the owner's desktop: where plugins' and the node's own signals land. */
  const raiseForOwner = (input: SignalInput, source: string, trigger: GateTrigger, options: RaiseOptions = {}) =>
    Effect.gen(function* () {
      const owner = yield* accounts.findOwner
      if (Option.isNone(owner))
        return yield* new NoOwnerDesktop({ message: "This node has no owner yet, so no desktop to raise on." })
      return yield* raise(owner.value.id, input, source, trigger, options)
    }).pipe(spanNamed("desktop.raiseForOwner"))

  const answer = (beingId: string, signalId: string, optionId: string) =>
    being.answer(beingId, signalId, optionId).pipe(
      Effect.catchTags({
        ...refusals,
        UnknownOption: ({ options }) =>
          Effect.fail(
            new SignalOptionUnknown({
              message: "That is not one of this signal's options.",
              details: { options }
            })
          ),
        ActionFailed: ({ kind, reason }) =>
          Effect.fail(
            new SignalActionFailed({
              message: `The answer could not be carried out (${reason}); the signal is still open.`,
              details: { kind, reason }
            })
          )
      }),
      spanNamed("desktop.answerSignal")
    )

  const dismiss = (beingId: string, signalId: string) =>
    being.dismiss(beingId, signalId).pipe(Effect.catchTags(refusals), spanNamed("desktop.dismissSignal"))

  const list = (beingId: string, status: SignalStatus, page: Page) =>
    store.list({ beingId, status, limit: page.limit, offset: page.offset }).pipe(spanNamed("desktop.listSignals"))

  return {
    raise,
    raiseForOwner,
    release,
    answer,
    dismiss,
    list,
    openSummary: store.openSummary,
    heldCount: store.heldCount
  } satisfies SignalsShape
})

export const SignalsLive = Layer.effect(Signals, make)
