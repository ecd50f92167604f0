/**
 * A memory of a being's twin (the second document's Memory), defined once: the twin's HTTP
 * contract answers it, the `memory` capability's adapter hands it to plugins and skills, and the
 * `memory.created` event carries it. Browser-safe.
 */
import * as Schema from "effect/Schema"

export const memoryKinds = ["fact", "episode", "preference", "relationship", "document", "insight"] as const
export const MemoryKind = Schema.Literal(...memoryKinds)
export type MemoryKind = typeof MemoryKind.Type

export const Memory = Schema.Struct({
  id: Schema.String,
  kind: MemoryKind,
  content: Schema.String,
  /** 0..1 */
  importance: Schema.Number,
  tags: Schema.Array(Schema.String),
  /** Where it came from: `manual`, `skill`, `<feature>:<id>` (a project's, a learning source's)... */
  source: Schema.String,
  /** ISO 8601 */
  createdAt: Schema.String
})
export type Memory = typeof Memory.Type

/** The limits every writer holds a new memory to (memory.store's, the first document's). */
export const MemoryContent = Schema.String.pipe(
  Schema.filter((text) => text.trim() !== "" || "some content"),
  Schema.maxLength(4000)
)
export const MemoryImportance = Schema.Number.pipe(Schema.between(0, 1))
export const MemoryTags = Schema.Array(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(64))).pipe(
  Schema.maxItems(20)
)
export const MemorySource = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200))
