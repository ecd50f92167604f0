/**
 * The hush gate's records: a being's settings, the stamp the gate writes on every raise, the
 * nudges of "what did I miss" and the answer of "why was I nudged". Plain schemas only: the HTTP
 * contract, and through it the web app, import this file.
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { SignalKind, SignalPriority } from "./signal.ts"

export const HushLevel = Schema.Literal("normal", "fewer", "off")
export type HushLevel = typeof HushLevel.Type

/** Who a raise is for: the node's own initiative, an answer to the person's act, or the node's duty. */
export const GateTrigger = Schema.Literal("proactive", "responsive", "system")
export type GateTrigger = typeof GateTrigger.Type

export const GateDecision = Schema.Literal("raised", "held", "refused")
export type GateDecision = typeof GateDecision.Type

const MinuteOfDay = Schema.Int.pipe(Schema.between(0, 1439))
export const MAX_DAILY_CAP = 100
export const MAX_MUTE_HOURS = 168

export const HushSettings = Schema.Struct({
  beingId: Schema.String,
  level: HushLevel,
  /** Minutes since local midnight; equal start and end: no quiet hours. */
  quietStart: MinuteOfDay,
  quietEnd: MinuteOfDay,
  dailyCap: Schema.Int.pipe(Schema.between(0, MAX_DAILY_CAP)),
  mutedUntil: Schema.NullOr(Schema.String),
  /** Null while the being keeps the defaults. */
  updatedAt: Schema.NullOr(Schema.String)
})
export type HushSettings = typeof HushSettings.Type

export const PutHush = Schema.Struct({
  level: Schema.optional(HushLevel),
  quietStart: Schema.optional(MinuteOfDay),
  quietEnd: Schema.optional(MinuteOfDay),
  dailyCap: Schema.optional(Schema.Int.pipe(Schema.between(0, MAX_DAILY_CAP))),
  /** Snoozes every proactive nudge for that many hours from now; 0 clears a snooze. */
  muteHours: Schema.optional(Schema.Number.pipe(Schema.between(0, MAX_MUTE_HOURS)))
})
export type PutHush = typeof PutHush.Type

export const EvidenceKind = Schema.Literal("memory", "todo", "event", "project", "unknown")
export type EvidenceKind = typeof EvidenceKind.Type

/** What a nudge rests on, as its raiser named it: looked up again whenever "why" is asked. */
export const EvidenceRef = Schema.Struct({ kind: EvidenceKind, id: Schema.String.pipe(Schema.maxLength(200)) })
export type EvidenceRef = typeof EvidenceRef.Type

export const CountedAgainst = Schema.Struct({ used: Schema.Int, cap: Schema.Int })
export type CountedAgainst = typeof CountedAgainst.Type

/** The gate's record of one decision, written with the signal. */
export const GateStamp = Schema.Struct({
  trigger: GateTrigger,
  decision: GateDecision,
  reason: Schema.String,
  heldUntil: Schema.NullOr(Schema.String),
  /** Null unless proactive: only proactive nudges count against the daily cap. */
  countedAgainst: Schema.NullOr(CountedAgainst),
  /**
   * The rule that decided: `within_cap`, `daily_cap`, `quiet_hours`, `muted`, `level_off`, `scheduled`, `responsive`,
   * `system`.
   */
  key: Schema.String,
  at: Schema.String
})
export type GateStamp = typeof GateStamp.Type

export const Nudge = Schema.Struct({
  id: Schema.String,
  title: Schema.String,
  body: Schema.String,
  kind: SignalKind,
  source: Schema.String,
  priority: SignalPriority,
  createdAt: Schema.String,
  reason: Schema.String,
  heldUntil: Schema.NullOr(Schema.String),
  countedAgainst: Schema.NullOr(CountedAgainst),
  /** The path of its "why" route. */
  why: Schema.String
})
export type Nudge = typeof Nudge.Type

export const HeldNudges = Schema.Struct({
  settings: HushSettings,
  held: Schema.Array(Nudge),
  refused: Schema.Array(Nudge)
})
export type HeldNudges = typeof HeldNudges.Type

export const EvidenceItem = Schema.Struct({
  id: Schema.String,
  kind: EvidenceKind,
  label: Schema.String,
  snippet: Schema.optional(Schema.String),
  /** True when the item it points at was deleted since. */
  gone: Schema.Boolean
})
export type EvidenceItem = typeof EvidenceItem.Type

export const NudgeWhy = Schema.Struct({
  title: Schema.String,
  because: Schema.String,
  basedOn: Schema.Array(Schema.String),
  evidence: Schema.Array(EvidenceItem),
  source: Schema.String,
  /** Null for a signal raised before the gate existed. */
  gate: Schema.NullOr(GateStamp)
})
export type NudgeWhy = typeof NudgeWhy.Type

export interface HushShape {
  readonly settings: (beingId: string) => Effect.Effect<HushSettings>
  /** Changes what is given; `muteHours` snoozes from now (0 clears the snooze). */
  readonly put: (beingId: string, change: PutHush) => Effect.Effect<HushSettings>
  /** "What did I miss": today's proactive nudges the gate held or refused, in the being's local day. */
  readonly held: (beingId: string) => Effect.Effect<HeldNudges>
}

/** A being's hush, as the time feature's routes serve it (implemented in actors/being/hush.ts). */
export class Hush extends Context.Tag("being/Hush")<Hush, HushShape>() {}
