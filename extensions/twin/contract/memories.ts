/**
 * The twin's memories as other features call them: the Muse recalls, the omnibar and the
 * module bridge search, health reads the embeddings' coverage. A storage fault is a defect
 * behind this tag, so no caller sees a SQL error.
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { Memory, MemoryKind } from "../../../kernel/contract/memory.ts"
import type { EmbeddingsStatus, MemoryInput, MemorySearchMode } from "./records.ts"

export interface MemorySearch {
  readonly q?: string
  readonly kind?: MemoryKind
  /** Default 20. */
  readonly limit?: number
  /** How many of the ranking (or of the newest) to skip; default 0. */
  readonly offset?: number
}

export interface MemorySearchResult {
  readonly memories: ReadonlyArray<Memory>
  readonly mode: MemorySearchMode
}

export interface TwinMemoriesShape {
  /**
   * A being's memories ranked by words and meaning (by words alone when no embed tier answers); the newest with no
   * query.
   */
  readonly search: (beingId: string, query: MemorySearch) => Effect.Effect<MemorySearchResult>
  /** A being's memories ranked by words only, best first. */
  readonly searchWords: (beingId: string, q: string, limit: number) => Effect.Effect<ReadonlyArray<Memory>>
  /** Stores a memory as `POST /api/twin/memories` does: always (near-duplicates too), the input's defaults filled. */
  readonly store: (beingId: string, input: MemoryInput) => Effect.Effect<Memory>
  /** Embedded against all memories, the node's (null) or one being's, and what that means for search. */
  readonly embeddings: (beingId: string | null) => Effect.Effect<EmbeddingsStatus>
}

export class TwinMemories extends Context.Tag("twin/TwinMemories")<TwinMemories, TwinMemoriesShape>() {}
