/**
 * The event bus, for any event type: an event is published to one being, to a topic (a thread's
 * own topic), or to all; the live channel (the socket) subscribes and fans events out to sockets.
 * The node's bus is the `EventBus` tag, typed by the events the features' contracts declare
 * (kernel/contract/events.ts); the kernel knows no event of its own. Its implementation is the
 * host's (one process, or several over PostgreSQL).
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as PubSub from "effect/PubSub"
import type * as Queue from "effect/Queue"
import type * as Scope from "effect/Scope"
import type { Audience, BusEvent } from "./contract/events.ts"

/** An event `E` for the audience `A` (a being, a topic, everyone: the node's contract says). */
export interface Delivery<A, E> {
  readonly audience: A
  readonly event: E
}

export interface EventBusShape<A, E> {
  readonly publish: (audience: A, event: E) => Effect.Effect<void>
  readonly subscribe: Effect.Effect<Queue.Dequeue<Delivery<A, E>>, never, Scope.Scope>
  /**
   * Calls `listener` with every event in the publisher's own turn, before `publish` returns, for as long as the
   * scope lasts: for a listener that only hands the event on without waiting (the live channel's fan-out). A
   * listener that throws is logged; the publisher and the other listeners go on.
   */
  readonly listen: (listener: (delivery: Delivery<A, E>) => void) => Effect.Effect<void, never, Scope.Scope>
}

/** An unbounded hub: a slow subscriber never holds a publisher up. */
export const makeEventBus = <A, E>(): Effect.Effect<EventBusShape<A, E>, never, Scope.Scope> =>
  Effect.map(Effect.acquireRelease(PubSub.unbounded<Delivery<A, E>>(), PubSub.shutdown), (hub) => {
    const listeners = new Set<(delivery: Delivery<A, E>) => void>()
    const tell = (delivery: Delivery<A, E>) => {
      const failed: Array<unknown> = []
      for (const listener of listeners) {
        try {
          listener(delivery)
        } catch (error) {
          failed.push(error)
        }
      }
      return failed
    }
    return {
      publish: (audience, event) =>
        Effect.suspend(() => {
          const delivery = { audience, event }
          const failed = listeners.size === 0 ? [] : tell(delivery)
          const published = Effect.asVoid(PubSub.publish(hub, delivery))
          return failed.length === 0
            ? published
            : Effect.zipRight(Effect.logError("An event's listener failed", ...failed), published)
        }),
      subscribe: PubSub.subscribe(hub),
      listen: (listener) =>
        Effect.acquireRelease(
          Effect.sync(() => void listeners.add(listener)),
          () => Effect.sync(() => void listeners.delete(listener))
        )
    }
  })

/** One event of the node's bus with its audience. */
export type BusDelivery = Delivery<Audience, BusEvent>

/** The node's event bus: features publish to an audience; the live channel subscribes. */
export class EventBus extends Context.Tag("kernel/EventBus")<EventBus, EventBusShape<Audience, BusEvent>>() {}
