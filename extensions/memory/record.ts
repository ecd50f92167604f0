/** The memory record as the memory skills answer it (the second document's Memory). */
import * as Schema from "effect/Schema"
import { memoryKinds } from "../../kernel/extensions/memory.ts"

export const MemoryKind = Schema.Literal(...memoryKinds)

export const MemoryRecord = Schema.Struct({
  id: Schema.String,
  kind: MemoryKind,
  content: Schema.String,
  importance: Schema.Number,
  tags: Schema.Array(Schema.String),
  source: Schema.String,
  createdAt: Schema.String
})

export const notWired = "memory is not wired on this node yet."
