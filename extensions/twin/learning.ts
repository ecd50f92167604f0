/**
 * Learning: memories extracted from a text by the cheap tier (structured output, one repair:
 * structured.ts), each stored unless the twin already holds a near-duplicate (by vector similarity), then
 * one `learned` activity. The same extraction serves `POST /api/twin/learn` and any feature that
 * learns on its own.
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import {
  memoryKinds,
  MemoryContent,
  MemoryImportance,
  MemoryKind,
  MemoryTags,
  type Memory
} from "../../kernel/contract/memory.ts"
import { Models } from "../models/contract/models.ts"
import { Activity } from "./activity.ts"
import type { LearnRequest } from "./contract/records.ts"
import { Memories } from "./memories.ts"
import { askStructured } from "./structured.ts"
import { spanNamed } from "../../kernel/spans.ts"

/** At most this many memories from one text. */
const mostPerText = 20

const Extraction = Schema.Struct({
  memories: Schema.Array(
    Schema.Struct({ content: MemoryContent, kind: MemoryKind, importance: MemoryImportance, tags: MemoryTags })
  ).pipe(Schema.maxItems(mostPerText))
})

/** The same shape as a JSON Schema, for the provider's structured output. */
const extractionSchema = {
  type: "object",
  additionalProperties: false,
  required: ["memories"],
  properties: {
    memories: {
      type: "array",
      maxItems: mostPerText,
      items: {
        type: "object",
        additionalProperties: false,
        required: ["content", "kind", "importance", "tags"],
        properties: {
          content: { type: "string", minLength: 1, maxLength: 4000 },
          kind: { type: "string", enum: [...memoryKinds] },
          importance: { type: "number", minimum: 0, maximum: 1 },
          tags: { type: "array", maxItems: 20, items: { type: "string", minLength: 1, maxLength: 64 } }
        }
      }
    }
  }
} as const

const system =
  "You keep the long-term memory of one person. From the text, extract what is worth remembering about them " +
  "and their world: facts, episodes, preferences, relationships, documents, insights. One self-contained " +
  "statement per memory, in the text's language, naming people and things plainly (no 'he' or 'it'). " +
  "importance: 0 trivia, 0.5 useful, 1 essential. tags: a few lowercase topic words. Nothing worth keeping: " +
  `an empty list. At most ${mostPerText}.`

export class Learning extends Effect.Service<Learning>()("twin/Learning", {
  dependencies: [Memories.Default, Activity.Default],
  effect: Effect.gen(function* () {
    const models = yield* Models
    const memories = yield* Memories
    const activity = yield* Activity

    const extract = (beingId: string, text: string) =>
      Effect.map(
        askStructured(models, {
          schema: Extraction,
          jsonSchema: { name: "memories", schema: extractionSchema },
          messages: [
            { role: "system", content: system },
            { role: "user", content: text }
          ],
          purpose: "twin learn",
          beingId,
          otherwise: "nothing was learned"
        }),
        (extraction) => extraction.memories
      )

    /**
     * Extracts, stores what is new (near-duplicates skipped), records one `learned` activity; answers the memories
     * stored.
     */
    const learn = (beingId: string, { text, source }: LearnRequest) =>
      Effect.gen(function* () {
        const extracted = yield* extract(beingId, text)
        const stored: Array<Memory> = []
        for (const memory of extracted) {
          const outcome = yield* memories.store(beingId, { ...memory, source }, { skipNearDuplicates: true })
          if (outcome.stored && outcome.memory !== null) stored.push(outcome.memory)
        }
        const skipped = extracted.length - stored.length
        yield* activity.record(
          beingId,
          "learned",
          `Learned ${stored.length} ${stored.length === 1 ? "memory" : "memories"} from ${source}` +
            (skipped > 0 ? ` (${skipped} already known)` : "")
        )
        return stored
      }).pipe(spanNamed("twin.learn"))

    return { learn } as const
  })
}) {}
