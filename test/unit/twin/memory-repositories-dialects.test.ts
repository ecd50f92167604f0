/**
 * The twin's memory repositories search alike on SQLite (FTS5, sqlite-vec) and PostgreSQL (a
 * tsvector with ts_rank, an exact cosine search over REAL[] vectors): words find their memories
 * best first, the last word as a prefix, operators typed in the query are only words; vectors
 * find their nearest first, filtered by kind and model, replaced and deleted; and a being never
 * sees another's memories either way.
 */
import { expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { BeingsRepository } from "../../../extensions/accounts/repositories/beings.ts"
import type { MemoryKind } from "../../../kernel/contract/memory.ts"
import { MemoriesRepository, searchWordsOf } from "../../../extensions/twin/repositories/memories-repository.ts"
import { MemoryVectorsRepository } from "../../../extensions/twin/repositories/memory-vectors-repository.ts"
import { onEachDialect } from "../../support/dialects.ts"

const createdAt = "2026-11-24T18:00:00.000Z"
const model = "embed-small"

const being = (id: string, handle: string) =>
  Effect.flatMap(BeingsRepository, (beings) =>
    beings.insertHuman({
      id,
      handle,
      displayName: handle,
      email: `${handle}@example.org`,
      passwordHash: "$2b$10$hash",
      isOwner: false,
      createdAt
    })
  )

/** Stores a memory and answers its seq. */
const remember = (beingId: string, content: string, kind: MemoryKind = "fact") =>
  Effect.map(
    Effect.flatMap(MemoriesRepository, (memories) =>
      memories.insert({
        id: `${beingId}-${content.slice(0, 24)}`,
        beingId,
        kind,
        content,
        importance: 0.5,
        tags: [],
        source: "manual",
        createdAt
      })
    ),
    (row) => row.seq
  )

const wordsFind = (beingId: string, text: string, kind: MemoryKind | null = null) =>
  Effect.flatMap(MemoriesRepository, (memories) =>
    Effect.map(memories.wordSearch({ beingId, words: searchWordsOf(text), kind, limit: 10 }), (rows) =>
      rows.map((row) => row.seq)
    )
  )

const nearest = (beingId: string, vector: ReadonlyArray<number>, kind: MemoryKind | null = null, k = 10, of = model) =>
  Effect.flatMap(MemoryVectorsRepository, (vectors) => vectors.nearest({ beingId, kind, model: of, vector, k }))

onEachDialect("the twin's memory repositories", (database) => {
  it.effect(
    "search words best first, the last word as a prefix, and only the being's own",
    () =>
      Effect.gen(function* () {
        yield* being("ada", "ada")
        yield* being("bo", "bo")
        const dogs = yield* remember("ada", "Ada walks her dog, and the dog loves the park.")
        const dog = yield* remember("ada", "Ada once fed a neighbour's dog.", "episode")
        const tea = yield* remember("ada", "Ada drinks green tea every morning.")
        yield* remember("bo", "Bo walks a dog too.")

        // The memory that says "dog" twice ranks first; Bo's memory never shows.
        expect(yield* wordsFind("ada", "dog")).toEqual([dogs, dog])
        expect(yield* wordsFind("bo", "dog")).toHaveLength(1)
        expect(yield* wordsFind("ada", "dog", "episode")).toEqual([dog])
        // The last word is a prefix (typing goes on); any word matches.
        expect(yield* wordsFind("ada", "gre")).toEqual([tea])
        expect(yield* wordsFind("ada", "tea park")).toEqual(expect.arrayContaining([tea, dogs]))
        // What looks like an operator is only text.
        expect(yield* wordsFind("ada", `tea" OR NOT ) & | ! :* dog`)).toEqual(expect.arrayContaining([tea, dogs, dog]))
        expect(yield* wordsFind("ada", "zebra")).toEqual([])

        // A removed memory is no longer found.
        yield* Effect.flatMap(MemoriesRepository, (memories) => memories.remove(dogs))
        expect(yield* wordsFind("ada", "dog")).toEqual([dog])
      }).pipe(Effect.provide([MemoriesRepository.Default, BeingsRepository.Default]), Effect.provide(database())),
    60_000
  )

  it.effect(
    "find the nearest vectors by cosine distance, replace and remove them, only the being's own",
    () =>
      Effect.gen(function* () {
        const vectors = yield* MemoryVectorsRepository
        yield* being("ada", "ada")
        yield* being("bo", "bo")
        const east = yield* remember("ada", "east")
        const northEast = yield* remember("ada", "north east", "episode")
        const north = yield* remember("ada", "north")
        const bosEast = yield* remember("bo", "east too")
        yield* vectors.put({ seq: east, beingId: "ada", kind: "fact", model, vector: [1, 0, 0] })
        yield* vectors.put({ seq: northEast, beingId: "ada", kind: "episode", model, vector: [1, 1, 0] })
        yield* vectors.put({ seq: north, beingId: "ada", kind: "fact", model, vector: [0, 2, 0] })
        yield* vectors.put({ seq: bosEast, beingId: "bo", kind: "fact", model, vector: [1, 0, 0] })

        const found = yield* nearest("ada", [3, 0, 0])
        expect(found.map((hit) => hit.seq)).toEqual([east, northEast, north])
        expect(found[0]!.distance).toBeCloseTo(0, 5)
        expect(found[1]!.distance).toBeCloseTo(1 - Math.SQRT1_2, 5)
        expect(found[2]!.distance).toBeCloseTo(1, 5)
        expect((yield* nearest("ada", [3, 0, 0], null, 1)).map((hit) => hit.seq)).toEqual([east])
        expect((yield* nearest("ada", [3, 0, 0], "episode")).map((hit) => hit.seq)).toEqual([northEast])
        expect(yield* nearest("ada", [3, 0, 0], null, 10, "another-model")).toEqual([])
        expect((yield* nearest("bo", [0, 1, 0])).map((hit) => hit.seq)).toEqual([bosEast])

        // Putting again replaces the vector; removing takes it out of the search.
        yield* vectors.put({ seq: north, beingId: "ada", kind: "fact", model, vector: [-1, 0, 0] })
        expect((yield* nearest("ada", [1, 0, 0])).map((hit) => hit.seq)).toEqual([east, northEast, north])
        yield* vectors.remove({ seq: north, dims: 3 })
        expect((yield* nearest("ada", [1, 0, 0])).map((hit) => hit.seq)).toEqual([east, northEast])
        // Another size is another index: a query of 4 dimensions finds none of the 3-dimension vectors.
        expect(yield* nearest("ada", [1, 0, 0, 0])).toEqual([])
      }).pipe(
        Effect.provide([MemoriesRepository.Default, MemoryVectorsRepository.Default, BeingsRepository.Default]),
        Effect.provide(database())
      ),
    60_000
  )
})
