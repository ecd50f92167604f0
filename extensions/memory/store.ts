/**
 * memory.store (the first document's schema): one memory into the calling being's twin, through
 * the memory adapter. Inside a studio project a source left at 'skill' becomes
 * `studio:<project id>` (rule 3), so the twin knows which project taught it. The twin may decline
 * a near-duplicate of what it already remembers (stored false, the memory that made it needless).
 * With no adapter it stores nothing and says so.
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { defineSkill, refusedAsSkillFailure, withDefault } from "../../kernel/extensions/skill.ts"
import { MemoryContent, MemoryImportance, MemorySource, MemoryTags } from "../../kernel/contract/memory.ts"
import { MemoryKind, MemoryRecord, notWired } from "./record.ts"

const defaultSource = "skill"

const Input = Schema.Struct({
  content: MemoryContent,
  kind: withDefault(MemoryKind, "fact"),
  importance: withDefault(MemoryImportance, 0.5),
  tags: withDefault(MemoryTags, []),
  source: withDefault(MemorySource, defaultSource)
})

const Output = Schema.Struct({
  memory: Schema.NullOr(MemoryRecord),
  stored: Schema.Boolean,
  note: Schema.optionalWith(Schema.String, { exact: true })
})

export const store = defineSkill({
  description:
    "Remember something (a fact, episode, preference, relationship, document or insight) in the twin of the person you work for.",
  input: Input,
  output: Output,
  run: (input, context) => {
    const memory = context.adapters.memory
    if (memory === undefined) return Effect.succeed({ memory: null, stored: false, note: notWired })
    const source =
      input.source === defaultSource && context.projectId !== null ? `studio:${context.projectId}` : input.source
    return refusedAsSkillFailure(memory.store({ ...input, source }))
  }
})
