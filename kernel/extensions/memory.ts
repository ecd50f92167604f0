/**
 * The `memory` capability's adapter: the twin's typed memory as plugins and skills get it. Which
 * twin is the call's: the runtime builds the adapter for each call with the calling being (the
 * owner's twin for a plugin's own work outside a call), so plugin code never names a being.
 * The twin implements it (extensions/twin/memory-adapter.ts).
 */
import type * as Effect from "effect/Effect"
import type { Memory, MemoryKind } from "../contract/memory.ts"
import type { CapabilityRefused } from "./capability-refused.ts"

export { memoryKinds, type MemoryKind } from "../contract/memory.ts"

export type MemoryRecord = Memory

export interface NewMemory {
  readonly content: string
  readonly kind: MemoryKind
  readonly importance: number
  readonly tags: ReadonlyArray<string>
  readonly source: string
}

export interface MemoryStored {
  /** The stored record; or, when nothing was stored, the one that made it needless, or null. */
  readonly memory: MemoryRecord | null
  readonly stored: boolean
  /** Why nothing was stored, when nothing was. */
  readonly note?: string
}

export interface MemoryQuery {
  readonly query: string
  readonly kind?: MemoryKind
  /** At most this many, best first. */
  readonly limit: number
}

export interface MemoryAdapter {
  /** Refused saying plainly why, when the store refuses. */
  readonly store: (memory: NewMemory) => Effect.Effect<MemoryStored, CapabilityRefused>
  readonly recall: (query: MemoryQuery) => Effect.Effect<ReadonlyArray<MemoryRecord>, CapabilityRefused>
}
