/**
 * What the twin needs from features it does not own, as ports the host binds
 * (host/twin/feature.ts): how the model tiers it uses are bound, read from the models' settings
 * without calling a model, so the status and the search can say plainly what they do.
 */
import * as Context from "effect/Context"

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
