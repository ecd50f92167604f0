/**
 * The hush's MemoryEvidence bound to the twin's memories: "why was I nudged" reads a memory named
 * as evidence by table lookup at the time it is asked, the caller's own only; one deleted since
 * (or another being's) is not found, and so reads as gone.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { MemoriesRepository } from "./repositories/memories-repository.ts"
import { MemoryEvidence } from "../time/contract/ports.ts"

const LABEL = 120

export const MemoryEvidenceLive = Layer.effect(
  MemoryEvidence,
  Effect.map(MemoriesRepository, (memories) => ({
    find: (beingId: string, memoryId: string) =>
      Effect.map(
        memories.findOwned({ beingId, id: memoryId }),
        Option.map((memory) => {
          const firstLine = memory.content.split("\n", 1)[0]!
          const label = firstLine.length > LABEL ? `${firstLine.slice(0, LABEL - 1)}…` : firstLine
          return { label: `${memory.kind}: ${label}`, snippet: memory.content.slice(0, 200) }
        })
      )
  }))
).pipe(Layer.provide(MemoriesRepository.Default))
