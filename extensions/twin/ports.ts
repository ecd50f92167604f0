/**
 * What the twin needs from features it does not own, as ports the host binds
 * (host/twin/feature.ts): how the model tiers it uses are bound, read from the models' settings
 * without calling a model, so the status and the search can say plainly what they do.
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"

export interface TwinBindingsShape {
  readonly embed: {
    /** A binding is usable: a local server, or a remote provider with a key. */
    readonly available: boolean
    /** The bound model: vectors of another model are never compared with its own. */
    readonly model: string
    /** Text sent to be embedded may leave the host (a remote tier, or a local one allowed to fall back). */
    readonly leavesDevice: boolean
  }
  /** The cheap chat tier (learning, reflection) is usable. */
  readonly cheapAvailable: boolean
}

export class TwinBindings extends Context.Tag("twin/TwinBindings")<TwinBindings, TwinBindingsShape>() {}

/**
 * Where reflection's insights land: the being's desktop, through the one path every raise takes
 * (and so through the hush gate, as a proactive signal). Answers the signal's id and whether it
 * was delivered now; a refusal is answered, not failed, since one lost insight stops nothing.
 */
export interface InsightSignalsShape {
  readonly raise: (
    beingId: string,
    insight: { readonly title: string; readonly body: string }
  ) => Effect.Effect<{ readonly signalId: string; readonly delivered: boolean } | { readonly refused: string }>
}

export class InsightSignals extends Context.Tag("twin/InsightSignals")<InsightSignals, InsightSignalsShape>() {}
