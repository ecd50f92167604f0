/**
 * The moment a signal reaches its being's desktop (published as `signal.created`: raised through
 * the gate, or a held one released), for features that carry it further (push to the person's
 * devices). The listeners are told right after the publish, once, on the process that wrote the
 * signal (the being actor's for a proactive raise or a release, the raiser's for a system or
 * responsive raise: actors/being/raise.ts); a refused or held signal is not told until (unless) it
 * is let through. A listener must not block its caller: it hands the signal to its own queue and
 * returns.
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { Signal } from "./signal.ts"

export type DeliveryListener = (signal: Signal) => Effect.Effect<void>

export interface SignalDeliveriesShape {
  /** Adds a listener for every delivery from now on. */
  readonly listen: (listener: DeliveryListener) => Effect.Effect<void>
  /** Tells every listener; the being actor calls it after publishing `signal.created`. */
  readonly delivered: (signal: Signal) => Effect.Effect<void>
}

export class SignalDeliveries extends Context.Tag("actors/being/SignalDeliveries")<
  SignalDeliveries,
  SignalDeliveriesShape
>() {}
