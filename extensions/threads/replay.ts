/**
 * What a thread's topic has carried of the reply streaming now, so a client that subscribes
 * mid-reply (a refresh) first gets the reply so far, then the rest. It is fed from the live
 * channel's delivery loop with each event as it is delivered, and read when a socket starts
 * following the topic, both synchronously: every event delivered before the follow is in the
 * catch-up, every one after reaches the socket, none twice. A reply's entry ends with its
 * `message.created`.
 */
import type { BusEvent } from "../../kernel/contract/events.ts"
import type { ToolCallChip } from "./contract/records.ts"

interface Streaming {
  readonly messageId: string
  text: string
  readonly chips: Map<string, ToolCallChip>
}

export interface ThreadReplay {
  /** An event delivered on `thread:<threadId>`. */
  readonly delivered: (threadId: string, event: BusEvent) => void
  /** The catch-up for a new subscriber: the text so far as one delta, then each tool chip as it is now. */
  readonly catchUp: (threadId: string) => ReadonlyArray<BusEvent>
}

export const makeThreadReplay = (): ThreadReplay => {
  const streaming = new Map<string, Streaming>()
  return {
    delivered: (threadId, event) => {
      switch (event.type) {
        case "message.delta": {
          const entry = streaming.get(threadId)
          if (entry === undefined || entry.messageId !== event.messageId) {
            streaming.set(threadId, { messageId: event.messageId, text: event.delta, chips: new Map() })
          } else entry.text += event.delta
          return
        }
        case "message.tool": {
          const entry = streaming.get(threadId)
          if (entry !== undefined && entry.messageId === event.messageId)
            entry.chips.set(event.toolCall.id, event.toolCall)
          return
        }
        case "message.created":
          if (streaming.get(threadId)?.messageId === event.message.id) streaming.delete(threadId)
          return
      }
    },
    catchUp: (threadId) => {
      const entry = streaming.get(threadId)
      if (entry === undefined) return []
      return [
        { type: "message.delta", threadId, messageId: entry.messageId, delta: entry.text },
        ...[...entry.chips.values()].map(
          (toolCall): BusEvent => ({ type: "message.tool", threadId, messageId: entry.messageId, toolCall })
        )
      ]
    }
  }
}
