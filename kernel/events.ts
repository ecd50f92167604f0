/**
 * The event bus (the events themselves are typed in event-union.ts). An event is published to one being, to a topic (a thread's own topic), or to all;
 * the live channel (`/api/ws`) subscribes and fans events out to sockets.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as PubSub from "effect/PubSub"
import type * as Scope from "effect/Scope"
import type * as Queue from "effect/Queue"
import type { NodeEvent } from "./event-union.ts"

/** Who an event is for. */
export type Audience =
  | { readonly kind: "being"; readonly beingId: string }
  | { readonly kind: "topic"; readonly topic: string }
  | { readonly kind: "all" }

export interface Delivery {
  readonly audience: Audience
  readonly event: NodeEvent
}

export interface EventBusShape {
  readonly publish: (audience: Audience, event: NodeEvent) => Effect.Effect<void>
  readonly subscribe: Effect.Effect<Queue.Dequeue<Delivery>, never, Scope.Scope>
}

export class EventBus extends Context.Tag("kernel/EventBus")<EventBus, EventBusShape>() {
  static readonly layer = Layer.scoped(
    EventBus,
    Effect.gen(function* () {
      const hub = yield* Effect.acquireRelease(PubSub.unbounded<Delivery>(), PubSub.shutdown)
      return {
        publish: (audience, event) => Effect.asVoid(PubSub.publish(hub, { audience, event })),
        subscribe: PubSub.subscribe(hub)
      }
    })
  )
}
