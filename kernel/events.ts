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
}

/** An unbounded hub: a slow subscriber never holds a publisher up. */
export const makeEventBus = <A, E>(): Effect.Effect<EventBusShape<A, E>, never, Scope.Scope> =>
  Effect.map(Effect.acquireRelease(PubSub.unbounded<Delivery<A, E>>(), PubSub.shutdown), (hub) => ({
    publish: (audience, event) => Effect.asVoid(PubSub.publish(hub, { audience, event })),
    subscribe: PubSub.subscribe(hub)
  }))

/** One event of the node's bus with its audience. */
export type BusDelivery = Delivery<Audience, BusEvent>

/** The node's event bus: features publish to an audience; the live channel subscribes. */
export class EventBus extends Context.Tag("kernel/EventBus")<EventBus, EventBusShape<Audience, BusEvent>>() {}
