/**
 * A step's wait for the owner's decision on a world-acting call its agent made. The signal's row is the truth: the
 * wait subscribes to the node's events first, then reads the signal, and takes events until that signal is no longer
 * open, so an answer can neither slip between the read and the wait nor be missed on another process (the bus
 * carries every event across processes). A restart reads the row again: an answer given while the node was down is
 * found at once. "Do it" ran the exact call inside the answer (skills/approvals.ts); its result is the signal's.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Queue from "effect/Queue"
import { EventBus } from "../../kernel/events.ts"
import { SignalReads } from "../being/contract/signal-reads.ts"
import type { Signal } from "../being/contract/signal.ts"
import { spanNamed } from "../../kernel/spans.ts"

/** What the agent reads as its call's result once the owner decided. */
export type DecisionOutcome =
  | { readonly ok: true; readonly output: unknown }
  | { readonly ok: false; readonly error: string }

const approvedOption = "do-it"

/** The decision a signal carries, or null while it is open. */
export const outcomeOf = (signal: Signal | null): DecisionOutcome | null => {
  if (signal === null)
    return { ok: false, error: "The decision was withdrawn before the owner answered; the call did not run." }
  if (signal.status === "open") return null
  if (signal.status === "dismissed")
    return { ok: false, error: "The owner dismissed the decision without approving it; the call did not run." }
  if (signal.answer !== approvedOption) return { ok: false, error: "The owner said no; the call did not run." }
  const result = signal.actionResult?.output as {
    readonly ok?: unknown
    readonly output?: unknown
    readonly error?: unknown
  }
  return result?.ok === true
    ? { ok: true, output: result.output }
    : { ok: false, error: typeof result?.error === "string" ? result.error : "The approved call did not run." }
}

/** Waits until the owner decided on the signal; answers what the call gave (or why it did not run). */
export const awaitDecision = (ownerId: string, signalId: string) =>
  Effect.gen(function* () {
    const bus = yield* EventBus
    const reads = yield* SignalReads
    const events = yield* bus.subscribe
    const read = Effect.map(reads.findGated({ beingId: ownerId, signalId }), (found) =>
      outcomeOf(Option.getOrNull(found))
    )
    let outcome = yield* read
    while (outcome === null) {
      const { event } = yield* Queue.take(events)
      const changed = event as { readonly type?: string; readonly signal?: { readonly id?: string } }
      if (changed.type === "signal.updated" && changed.signal?.id === signalId) outcome = yield* read
    }
    return outcome
  }).pipe(Effect.scoped, spanNamed("project.awaitDecision"))
