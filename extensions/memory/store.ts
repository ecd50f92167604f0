/**
 * memory.store (the first document's schema): one memory into the calling being's twin, through
 * the memory adapter. Inside a studio project a source left at 'skill' becomes
 * `studio:<project id>` (rule 3), so the twin knows which project taught it. With no adapter it
 * stores nothing and says so.
 */
import * as Schema from "effect/Schema"
import { defineSkill, withDefault } from "../../kernel/extensions/skill.ts"
import { MemoryKind, MemoryRecord, notWired } from "./record.ts"

const defaultSource = "skill"

const Input = Schema.Struct({
  content: Schema.String.pipe(Schema.filter((text) => text.trim() !== "" || "some content"), Schema.maxLength(4000)),
  kind: withDefault(MemoryKind, "fact"),
  importance: withDefault(Schema.Number.pipe(Schema.between(0, 1)), 0.5),
  tags: withDefault(Schema.Array(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(64))).pipe(Schema.maxItems(20)), []),
  source: withDefault(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200)), defaultSource)
})

const Output = Schema.Struct({
  memory: Schema.NullOr(MemoryRecord),
  stored: Schema.Boolean,
  note: Schema.optionalWith(Schema.String, { exact: true })
})

export const store = defineSkill({
  description: "Remember something (a fact, episode, preference, relationship, document or insight) in the twin of the person you work for.",
  input: Input,
  output: Output,
  run: async (input, context) => {
    const memory = context.adapters.memory
    if (memory === undefined) return { memory: null, stored: false, note: notWired }
    const source = input.source === defaultSource && context.projectId !== null ? `studio:${context.projectId}` : input.source
    return memory.store({ ...input, source })
  }
})
