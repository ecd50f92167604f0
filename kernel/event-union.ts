/**
 * The one Schema union of every event in the spec's event table, on its own so the web app
 * can read frames without the bus. Records whose full fields the spec does not show travel
 * as Json until their issue types them.
 */
import * as Schema from "effect/Schema"

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
