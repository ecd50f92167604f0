/**
 * memory.recall (its schema is ours): the memories of the calling being's twin that best match a
 * query, through the memory adapter. With no adapter it answers none and says so.
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { defineSkill, refusedAsSkillFailure, withDefault } from "../../kernel/extensions/skill.ts"
import { MemoryKind, MemoryRecord, notWired } from "./record.ts"

const Input = Schema.Struct({
  query: Schema.String.pipe(
    Schema.filter((text) => text.trim() !== "" || "a query"),
    Schema.maxLength(500)
  ),
  kind: Schema.optionalWith(MemoryKind, { exact: true }),
  limit: withDefault(Schema.Int.pipe(Schema.between(1, 50)), 10)
})

const Output = Schema.Struct({
  memories: Schema.Array(MemoryRecord).annotations({ description: "Best match first." }),
  note: Schema.optionalWith(Schema.String, { exact: true })
})

export const recall = defineSkill({
  description: "Recall what the twin of the person you work for remembers about something.",
  input: Input,
  output: Output,
  run: (input, context) => {
    const memory = context.adapters.memory
    if (memory === undefined) return Effect.succeed({ memories: [], note: notWired })
    return refusedAsSkillFailure(Effect.map(memory.recall(input), (memories) => ({ memories })))
  }
})
