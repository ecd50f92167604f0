/**
 * Every event of the spec's event table as one Schema union, and the bus that carries them.
 * Publishing is typed by the union; the web app decodes each frame with it.
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as Queue from "effect/Queue"
import * as Schema from "effect/Schema"
import type * as Scope from "effect/Scope"
import { Signal } from "../../actors/being/contract/signal.ts"
import { Project, Task, TraceEvent } from "../../actors/project/contract/records.ts"
import { Memory } from "../../kernel/contract/memory.ts"
import { TwinActivityEvent } from "../../extensions/twin/contract/records.ts"
import { Wallet } from "../../extensions/market/contract/records.ts"
import { Mood, Post } from "../../extensions/souls/contract/records.ts"
import { Message, Thread, ToolCallChip } from "../../extensions/threads/contract/records.ts"

const Json = Schema.Unknown

/** On the wire an event is `{ type, ...payload }`, as the spec's event table names them. */
const event = <const Type extends string, Fields extends Schema.Struct.Fields>(type: Type, fields: Fields) =>
  Schema.Struct({ type: Schema.tag(type), ...fields })

export const NodeEvent = Schema.Union(
  event("hello", { beingId: Schema.String, serverTime: Schema.String }),
  event("signal.created", { signal: Signal }),
  event("signal.updated", { signal: Signal }),
  /** A reply streams; its first delta is "" (the Muse is thinking), and a late subscriber's first is the text so far. */
  event("message.delta", { threadId: Schema.String, messageId: Schema.String, delta: Schema.String }),
  event("message.created", { message: Message }),
  event("message.tool", { threadId: Schema.String, messageId: Schema.String, toolCall: ToolCallChip }),
  /** Ours: a thread as its being sees it now (a new message in it, or opened with them), to each participant. */
  event("thread.updated", { thread: Thread }),
  event("task.updated", { task: Task }),
  event("project.updated", { project: Project }),
  event("trace", { event: TraceEvent }),
  event("memory.created", { memory: Memory }),
  event("widget.suggest", { widgetType: Schema.String, reason: Schema.String, config: Schema.optional(Json) }),
  event("presence.update", {
    beingId: Schema.String,
    status: Schema.Literal("online", "offline"),
    doing: Schema.optional(Schema.String)
  }),
  event("wallet.updated", { wallet: Wallet }),
  event("twin.activity", TwinActivityEvent.fields),
  event("square.post", { post: Post }),
  /** Ours: moderation hid a post, so open pages drop it. */
  event("square.retracted", { postId: Schema.String }),
  event("ambient", { mood: Mood, hint: Schema.optional(Schema.String) })
)
export type NodeEvent = typeof NodeEvent.Type

/** Who an event is for: one being (every tab of it), a topic's subscribers (a thread), or everyone. */
export type Audience =
  | { readonly kind: "being"; readonly beingId: string }
  | { readonly kind: "topic"; readonly topic: string }
  | { readonly kind: "all" }

export interface Delivery {
  readonly audience: Audience
  readonly event: NodeEvent
}

/** The node's event bus (kernel/events.ts makes it): publish to an audience; the live channel subscribes. */
export class EventBus extends Context.Tag("kernel/EventBus")<
  EventBus,
  {
    readonly publish: (audience: Audience, event: NodeEvent) => Effect.Effect<void>
    readonly subscribe: Effect.Effect<Queue.Dequeue<Delivery>, never, Scope.Scope>
  }
>() {}
