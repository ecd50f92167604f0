/**
 * The gate every signal raise passes before it is written: the one place that decides whether
 * a signal reaches the desktop. Today every signal is raised. The quiet-hours issue puts its
 * rules here (hold in quiet hours, refuse over the daily cap, let 'system' through) and adds
 * the `held` and `refused` decisions; raise in behaviour.ts already publishes only on `raised`.
 */
import * as Effect from "effect/Effect"
import type { SignalInput } from "./contract/signal.ts"

export interface GateRequest {
  readonly beingId: string
  readonly input: SignalInput
  readonly source: string
}

export interface GateDecision {
  readonly decision: "raised"
}

const raised: GateDecision = { decision: "raised" }

export const gate = (_request: GateRequest): Effect.Effect<GateDecision> => Effect.succeed(raised)
