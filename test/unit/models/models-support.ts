/** What the Models service's tests share: a chat request from one line, and a stream collected whole. */
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import type { ChatRequest, ChatStreamEvent } from "../../../extensions/models/contract/chat.ts"

export const ask = (text: string, extra: Partial<ChatRequest> = {}): ChatRequest => ({
  messages: [{ role: "user", content: text }],
  purpose: "test",
  ...extra
})

export const collect = <E>(stream: Stream.Stream<ChatStreamEvent, E>) =>
  Effect.map(Stream.runCollect(stream), Chunk.toArray)
