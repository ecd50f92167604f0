/**
 * Writing a raise once the gate has stamped it: the row (a refused one dismissed for audit, a held one due at its
 * release), then `signal.created` and the delivery hook for one that got through, each after the row is committed.
 * The being actor writes a proactive raise this way after its gate (behaviour.ts), one at a time per being, since a
 * proactive raise is counted against the day's cap; a `system` or `responsive` raise needs none of that order (no
 * count, no settings, no hold but the one its raiser asked for), so `BeingSignals` writes it here directly
 * (being-signals.ts, docs/decisions.md "A raise at the cost of its row").
 */
import * as Effect from "effect/Effect"
import { randomBytes } from "node:crypto"
import { EventBus } from "../../kernel/events.ts"
import type { EvidenceRef, GateStamp, GateTrigger } from "./contract/hush.ts"
import { SignalDeliveries } from "./contract/signal-deliveries.ts"
import type { Signal, SignalInput } from "./contract/signal.ts"
import { SignalsRepository } from "./signals-repository.ts"

export interface RaiseRequest {
  readonly input: SignalInput
  readonly source: string
  readonly trigger: GateTrigger
  readonly holdUntil: string | null
  readonly evidence: ReadonlyArray<EvidenceRef>
}

export interface RaiseOutcome {
  readonly signal: Signal
  readonly delivered: boolean
  readonly gate: GateStamp
}

/** A studio's signal rests on its project. */
const evidenceOfSource = (source: string): ReadonlyArray<EvidenceRef> =>
  source.startsWith("studio:") ? [{ kind: "project", id: source.slice("studio:".length) }] : []

/** The record of a raise, written as it is answered: no read back. */
const newSignal = (beingId: string, input: SignalInput, source: string, now: string): Signal => ({
  id: randomBytes(12).toString("base64url"),
  beingId,
  kind: input.kind,
  title: input.title,
  body: input.body,
  options: input.options,
  priority: input.priority,
  dueAt: input.dueAt === null ? null : new Date(input.dueAt).toISOString(),
  action: input.action,
  source,
  status: "open",
  answer: null,
  actionResult: null,
  createdAt: now,
  updatedAt: now,
  answeredAt: null
})

/** Writes stamped raises: the row, then (when delivered) the being's `signal.created` and the delivery listeners. */
export const raiseWriter = Effect.gen(function* () {
  const bus = yield* EventBus
  const deliveries = yield* SignalDeliveries
  const signals = yield* SignalsRepository
  return (beingId: string, raise: RaiseRequest, stamp: GateStamp): Effect.Effect<RaiseOutcome> =>
    Effect.gen(function* () {
      const raised = newSignal(beingId, raise.input, raise.source, stamp.at)
      const signal: Signal =
        stamp.decision === "refused"
          ? { ...raised, status: "dismissed" }
          : stamp.decision === "held"
            ? { ...raised, dueAt: stamp.heldUntil }
            : raised
      const evidence = [...raise.evidence, ...evidenceOfSource(raise.source)]
      yield* signals.insert({
        ...signal,
        gate: { ...stamp, evidence },
        heldUntil: stamp.decision === "held" ? stamp.heldUntil : null
      })
      const delivered = stamp.decision === "raised"
      if (delivered) {
        yield* bus.publish({ kind: "being", beingId }, { type: "signal.created", signal })
        yield* deliveries.delivered(signal)
      }
      return { signal, delivered, gate: stamp }
    })
})
