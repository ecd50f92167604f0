/**
 * The event bus and the one Schema union of every event in the spec's event table.
 * An event is published to one being, to a topic (a thread's own topic), or to all;
 * the live channel (`/api/ws`) subscribes and fans events out to sockets.
 * Records whose full fields the spec does not show travel as Json until their issue types them.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as PubSub from "effect/PubSub"
import * as Schema from "effect/Schema"
import type * as Scope from "effect/Scope"
import type * as Queue from "effect/Queue"

const Json = Schema.Unknown

/** On the wire an event is `{ type, ...payload }`, as the spec's event table names them. */
const event = <const Type extends string, Fields extends Schema.Struct.Fields>(type: Type, fields: Fields) =>
  Schema.Struct({ type: Schema.tag(type), ...fields })

export const NodeEvent = Schema.Union(
  event("hello", { beingId: Schema.String, serverTime: Schema.String }),
  event("signal.created", { signal: Json }),
  event("signal.updated", { signal: Json }),
  event("message.delta", { threadId: Schema.String, messageId: Schema.String, delta: Schema.String }),
  event("message.created", { message: Json }),
  event("message.tool", { threadId: Schema.String, messageId: Schema.String, toolCall: Json }),
  event("task.updated", { task: Json }),
  event("project.updated", { project: Json }),
  event("trace", { event: Json }),
  event("memory.created", { memory: Json }),
  event("widget.suggest", { widgetType: Schema.String, reason: Schema.String, config: Schema.optional(Json) }),
  event("presence.update", {
    beingId: Schema.String,
    status: Schema.Literal("online", "offline"),
    doing: Schema.optional(Schema.String)
  }),
  event("wallet.updated", { wallet: Json }),
  event("twin.activity", { kind: Schema.String, summary: Schema.String, at: Schema.String }),
  event("square.post", { post: Json }),
  event("ambient", { mood: Json, hint: Schema.optional(Schema.String) })
)
export type NodeEvent = typeof NodeEvent.Type

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
