/** The threads' events: messages on a thread's topic, and a thread as its being sees it now. */
import * as Schema from "effect/Schema"
import { event } from "../../../kernel/contract/events.ts"
import { Message, Thread, ToolCallChip } from "./records.ts"

/** A reply streams; its first delta is "" (the Muse is thinking), and a late subscriber's first is the text so far. */
export const MessageDelta = event("message.delta", {
  threadId: Schema.String,
  messageId: Schema.String,
  delta: Schema.String
})
export const MessageCreated = event("message.created", { message: Message })
export const MessageTool = event("message.tool", {
  threadId: Schema.String,
  messageId: Schema.String,
  toolCall: ToolCallChip
})
/** Ours: a thread as its being sees it now (a new message in it, or opened with them), to each participant. */
export const ThreadUpdated = event("thread.updated", { thread: Thread })

declare module "../../../kernel/contract/events.ts" {
  interface BusEvents {
    "message.delta": typeof MessageDelta.Type
    "message.created": typeof MessageCreated.Type
    "message.tool": typeof MessageTool.Type
    "thread.updated": typeof ThreadUpdated.Type
  }
}
