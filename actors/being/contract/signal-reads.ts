/**
 * What other features read of a being's stored signals (the being actor owns the table,
 * actors/being/signals-repository.ts): the desktop's lists and counts, the time feature's agenda,
 * the hush's held nudges and "why was I nudged". Reads only; every write goes through the being
 * actor (contract/being-signals.ts).
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { EvidenceRef, GateStamp } from "./hush.ts"
import { Signal, type SignalStatus } from "./signal.ts"

/** The gate's stamp as stored: the decision and what the raiser said the nudge rests on. */
export const StoredGate = Schema.Struct({ ...GateStamp.fields, evidence: Schema.Array(EvidenceRef) })
export type StoredGate = typeof StoredGate.Type

/** A signal with the gate's stamp (null before the gate). */
export const GatedSignal = Schema.Struct({ ...Signal.fields, gate: Schema.NullOr(StoredGate) })
export type GatedSignal = typeof GatedSignal.Type

export interface SignalReadsShape {
  /** The being's signals in one status that the desktop shows, newest first: `limit` of them after `offset`. */
  readonly list: (request: {
    readonly beingId: string
    readonly status: SignalStatus
    readonly limit: number
    readonly offset: number
  }) => Effect.Effect<ReadonlyArray<Signal>>
  /** How many signals are open, and the most pressing few of them. */
  readonly openSummary: (
    beingId: string,
    top: number
  ) => Effect.Effect<{ readonly count: number; readonly top: ReadonlyArray<Signal> }>
  /** How many proactive nudges the gate holds right now. */
  readonly heldCount: (beingId: string) => Effect.Effect<number>
  /** The being's signal with the gate's stamp, in any state. */
  readonly findGated: (request: {
    readonly beingId: string
    readonly signalId: string
  }) => Effect.Effect<Option.Option<GatedSignal>>
  /** The proactive nudges the gate holds right now, with their stamps. */
  readonly heldProactive: (beingId: string) => Effect.Effect<ReadonlyArray<GatedSignal>>
  /** Open signals due inside [from, to] that the desktop shows, soonest first. */
  readonly openDueBetween: (request: {
    readonly beingId: string
    readonly from: string
    readonly to: string
  }) => Effect.Effect<ReadonlyArray<Signal>>
}

export class SignalReads extends Context.Tag("being/SignalReads")<SignalReads, SignalReadsShape>() {}
