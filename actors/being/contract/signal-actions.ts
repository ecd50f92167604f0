/**
 * The signal action dispatcher: work an answer carries out. A signal's `action` is opaque
 * unless its `kind` names a handler registered here; then answering the signal runs that
 * handler inside the answer's own transaction (the single-use step). Features register their
 * kinds: the approval of a world-acting skill ("Do it"), a calendar reminder firing, ...
 *
 * A handler is told which option was chosen and decides what that means (a "No" usually does
 * nothing). What it answers is recorded on the signal as `actionResult`. When it fails, the
 * transaction rolls back: the signal stays open, and whatever the handler wrote through the
 * node's database is undone with it. Work outside the database (a mail sent) cannot be undone,
 * so a handler does that last. A handler must not wait on another fiber's database work (a
 * persisted actor message, say): that fiber would wait for this transaction to end.
 *
 * The tag, for the features that register kinds; the registry is actors/being/actions.ts.
 */
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import type * as Effect from "effect/Effect"
import type { ActionFailed } from "./errors.ts"
import type { ActionResult, Signal } from "./signal.ts"

/** A handler's refusal: the answer is rolled back and the caller is told `reason`. */
export class ActionRefused extends Data.TaggedError("ActionRefused")<{ readonly reason: string }> {}

export interface ActionRequest {
  /** The signal as answered (status `answered`, `answer` set), inside the answer's transaction. */
  readonly signal: Signal
  readonly optionId: string
}

/** Answers JSON (recorded as the action's output) or refuses. */
export type ActionHandler = (request: ActionRequest) => Effect.Effect<unknown, ActionRefused>

export interface SignalActionsShape {
  /** Claims an action kind; a kind claimed twice is a programming error (a defect). */
  readonly register: (kind: string, handler: ActionHandler) => Effect.Effect<void>
  /** Runs the handler of the signal's action kind, if any; null when no handler ran. */
  readonly dispatch: (request: ActionRequest) => Effect.Effect<ActionResult | null, ActionFailed>
}

export class SignalActions extends Context.Tag("actors/being/SignalActions")<SignalActions, SignalActionsShape>() {}
