/**
 * Signals: the one path every raiser takes (the node's own features, the owner's raise route, the
 * `signals` capability of plugins), declared here so every feature raises through this tag; the
 * desktop binds it (extensions/desktop/signals.ts). Refusals are the desktop's own (./errors.ts), and
 * the kernel's 503 `busy` when a being's actor cannot take the message.
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { EvidenceRef, GateTrigger } from "../../../actors/being/contract/hush.ts"
import type { RaisedSignal, Signal, SignalInput, SignalStatus } from "../../../actors/being/contract/signal.ts"
import type { ActorBusy } from "../../../kernel/contract/actor-errors.ts"
import type { Page } from "../../../kernel/contract/page.ts"
import type {
  NoOwnerDesktop,
  NoSuchSignal,
  SignalActionFailed,
  SignalAlreadyClosed,
  SignalInvalid,
  SignalOptionUnknown
} from "./errors.ts"

/** The scheduler's job that lets a held signal through at its time. */
export const RELEASE_JOB = "signal.release"

/** What a raiser may add: a later delivery (a reminder) and what the nudge rests on ("why"). */
export interface RaiseOptions {
  readonly holdUntil?: string | null
  readonly evidence?: ReadonlyArray<EvidenceRef>
}

export interface SignalsShape {
  /**
   * Raises a signal on one being's desktop through the hush gate; `source` says who raised it,
   * `trigger` on whose initiative. A held signal is released by the scheduler at its time.
   */
  readonly raise: (
    beingId: string,
    input: SignalInput,
    source: string,
    trigger: GateTrigger,
    options?: RaiseOptions
  ) => Effect.Effect<RaisedSignal, SignalInvalid | ActorBusy>
  /** Raises on the owner's desktop: where plugins' and the node's own signals land. */
  readonly raiseForOwner: (
    input: SignalInput,
    source: string,
    trigger: GateTrigger,
    options?: RaiseOptions
  ) => Effect.Effect<RaisedSignal, SignalInvalid | NoOwnerDesktop | ActorBusy>
  /** Lets a held signal through; repeatable (a second release finds it released). */
  readonly release: (beingId: string, signalId: string) => Effect.Effect<boolean, ActorBusy>
  readonly answer: (
    beingId: string,
    signalId: string,
    optionId: string
  ) => Effect.Effect<Signal, NoSuchSignal | SignalAlreadyClosed | SignalOptionUnknown | SignalActionFailed | ActorBusy>
  readonly dismiss: (
    beingId: string,
    signalId: string
  ) => Effect.Effect<Signal, NoSuchSignal | SignalAlreadyClosed | ActorBusy>
  /** The being's signals in one status, newest first: `page.limit` of them after `page.offset`. */
  readonly list: (beingId: string, status: SignalStatus, page: Page) => Effect.Effect<ReadonlyArray<Signal>>
  /** How many signals are open, and the most pressing few of them. */
  readonly openSummary: (
    beingId: string,
    top: number
  ) => Effect.Effect<{ readonly count: number; readonly top: ReadonlyArray<Signal> }>
  /** How many proactive nudges the gate holds right now. */
  readonly heldCount: (beingId: string) => Effect.Effect<number>
}

export class Signals extends Context.Tag("desktop/Signals")<Signals, SignalsShape>() {}
