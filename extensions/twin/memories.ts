/**
 * A being's memories: store, search, delete, and the embedding of what was stored without a
 * vector. Search fuses the FTS5 word ranking with the sqlite-vec ranking by meaning
 * (ranking.ts); with no usable embed binding, or when embedding the query fails, it ranks by
 * words alone and says so. A memory is stored whether or not it could be embedded (local first:
 * the words index never waits for a model); the backfill embeds it later (backfill.ts).
 * Every operation is for one being, named by the caller from its session or call scope.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { randomUUID } from "node:crypto"
import { MemoryNotFound } from "./contract/errors.ts"
import type { Memory } from "../../kernel/contract/memory.ts"
import type { MemoryStored, NewMemory } from "../../kernel/extensions/memory.ts"
import { orDieOnStorageFault } from "../../kernel/repository.ts"
import { nowIso } from "../../kernel/time.ts"
import { Models } from "../models/contract/models.ts"
import { EventBus } from "../../kernel/events.ts"
import type { EmbeddingsStatus } from "./contract/records.ts"
import type { MemorySearch, MemorySearchResult } from "./contract/memories.ts"
import { TwinBindings } from "./ports.ts"
import { byFusedScore, fuse } from "./ranking.ts"
import { MemoriesRepository, searchWordsOf, type StoredMemory } from "./repositories/memories-repository.ts"
import { MemoryVectorsRepository } from "./repositories/memory-vectors-repository.ts"
import { TwinSettings } from "./settings.ts"
import { spanNamed } from "../../kernel/spans.ts"

type SearchResult = MemorySearchResult

const recordOf = ({ id, kind, content, importance, tags, source, createdAt }: StoredMemory): Memory => ({
  id,
  kind,
  content,
  importance,
  tags,
  source,
  createdAt
})

/**
 * Each ranking offers this many candidates per result up to the page's end, so fusion has both lists' tails
 * to weigh; at most vec0's k limit, so a page past what two rankings that deep hold is empty.
 */
const candidatesPer = 4
const minCandidates = 40
const maxCandidates = 4096

export const duplicateNote = "The twin already remembers this (a near-duplicate); nothing new was stored."

export class Memories extends Effect.Service<Memories>()("twin/Memories", {
  dependencies: [MemoriesRepository.Default, MemoryVectorsRepository.Default],
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const repository = yield* MemoriesRepository
    const vectors = yield* MemoryVectorsRepository
    const models = yield* Models
    const bindings = yield* TwinBindings
    const settings = yield* TwinSettings
    const bus = yield* EventBus

    /** Vectors for the texts, with the model that made them; none when the tier is unbound or the call fails. */
    const embed = (beingId: string | null, input: ReadonlyArray<string>) =>
      bindings.embed.available
        ? models.embed({ input, purpose: "twin memory", beingId }).pipe(
            Effect.map((result) => Option.some({ vectors: result.vectors, model: result.call.model })),
            Effect.catchAll((failure) =>
              Effect.as(Effect.logWarning(`Memory stays unembedded for now: ${failure.message}`), Option.none())
            )
          )
        : Effect.succeed(
            Option.none<{ readonly vectors: ReadonlyArray<ReadonlyArray<number>>; readonly model: string }>()
          )

    /** The being's memory most similar to the vector, when it is at least `similarity` alike. */
    const similarTo = (beingId: string, model: string, vector: ReadonlyArray<number>, similarity: number) =>
      Effect.gen(function* () {
        const [nearest] = yield* vectors.nearest({ beingId, kind: null, model, vector, k: 1 })
        if (nearest === undefined || 1 - nearest.distance < similarity) return Option.none<StoredMemory>()
        const [found] = yield* repository.bySeqs({ beingId, seqs: [nearest.seq] })
        return Option.fromNullable(found)
      })

    const write = (
      beingId: string,
      memory: NewMemory,
      embedded: Option.Option<{ readonly vector: ReadonlyArray<number>; readonly model: string }>
    ) =>
      Effect.gen(function* () {
        const record: Memory = { id: randomUUID(), ...memory, createdAt: yield* nowIso }
        yield* sql
          .withTransaction(
            Effect.gen(function* () {
              const { seq } = yield* repository.insert({ ...record, beingId })
              if (Option.isSome(embedded)) {
                const { vector, model } = embedded.value
                yield* vectors.put({ seq, beingId, kind: record.kind, model, vector })
                yield* repository.markEmbedded({ seq, model, dims: vector.length })
              }
            })
          )
          .pipe(orDieOnStorageFault)
        yield* bus.publish({ kind: "being", beingId }, { type: "memory.created", memory: record })
        return record
      })

    /**
     * Stores one memory for the being. `skipNearDuplicates`: a memory at least
     * MEMORY_DUPLICATE_SIMILARITY alike to one the being holds is not stored again (the skills and
     * learning); a person's own POST always stores.
     */
    const store = (beingId: string, memory: NewMemory, options: { readonly skipNearDuplicates: boolean }) =>
      Effect.gen(function* () {
        const embedded = Option.map(yield* embed(beingId, [memory.content]), ({ vectors, model }) => ({
          vector: vectors[0]!,
          model
        }))
        if (options.skipNearDuplicates && Option.isSome(embedded)) {
          const { vector, model } = embedded.value
          const duplicate = yield* similarTo(beingId, model, vector, settings.memoryDuplicateSimilarity)
          if (Option.isSome(duplicate)) {
            return { memory: recordOf(duplicate.value), stored: false, note: duplicateNote } satisfies MemoryStored
          }
        }
        return { memory: yield* write(beingId, memory, embedded), stored: true } satisfies MemoryStored
      }).pipe(spanNamed("twin.storeMemory"))

    const search = (beingId: string, { q, kind, limit = 20, offset = 0 }: MemorySearch) =>
      Effect.gen(function* () {
        const terms = q === undefined ? [] : searchWordsOf(q)
        const wanted = kind ?? null
        if (q === undefined || q.trim() === "") {
          const newest = yield* repository.newest({ beingId, kind: wanted, limit, offset })
          return {
            memories: newest.map(recordOf),
            mode: bindings.embed.available ? "hybrid" : "words"
          } satisfies SearchResult
        }
        const candidates = Math.min(Math.max((offset + limit) * candidatesPer, minCandidates), maxCandidates)
        const words =
          terms.length === 0
            ? []
            : (yield* repository.wordSearch({ beingId, words: terms, kind: wanted, limit: candidates })).map(
                (row) => row.seq
              )
        // Nothing to find by meaning either: skip the embedding's round trip (the Muse recalls on every reply).
        if (
          words.length === 0 &&
          (yield* repository.newest({ beingId, kind: wanted, limit: 1, offset: 0 })).length === 0
        ) {
          return { memories: [], mode: bindings.embed.available ? "hybrid" : "words" } satisfies SearchResult
        }
        const query = yield* embed(beingId, [q])
        const meaning = Option.isNone(query)
          ? null
          : (yield* vectors.nearest({
              beingId,
              kind: wanted,
              model: query.value.model,
              vector: query.value.vectors[0]!,
              k: candidates
            }))
              .filter((hit) => 1 - hit.distance >= settings.memoryMinSimilarity)
              .map((hit) => hit.seq)
        const scores = fuse(meaning === null ? [words] : [words, meaning])
        const found = yield* repository.bySeqs({ beingId, seqs: [...scores.keys()] })
        // The offset applies here, to the fused ranking, which is final only once both lists are in.
        return {
          memories: byFusedScore(found, scores)
            .slice(offset, offset + limit)
            .map(recordOf),
          mode: meaning === null ? "words" : "hybrid"
        } satisfies SearchResult
      }).pipe(spanNamed("twin.searchMemories"))

    /**
     * The being's memories by the words index alone, best first: no embedding, so no model spend
     * (the omnibar's search asks on every pause in typing).
     */
    const searchWords = (beingId: string, q: string, limit: number) =>
      Effect.gen(function* () {
        const terms = searchWordsOf(q)
        if (terms.length === 0) return []
        const seqs = (yield* repository.wordSearch({ beingId, words: terms, kind: null, limit })).map((row) => row.seq)
        const found = yield* repository.bySeqs({ beingId, seqs })
        const rank = new Map(seqs.map((seq, index) => [seq, index]))
        return [...found].sort((a, b) => rank.get(a.seq)! - rank.get(b.seq)!).map(recordOf)
      }).pipe(spanNamed("twin.searchMemoryWords"))

    const owned = (beingId: string, id: string) =>
      Effect.flatMap(
        repository.findOwned({ beingId, id }),
        Option.match({
          onNone: () =>
            Effect.fail(new MemoryNotFound({ message: "There is no memory with that id.", details: { id } })),
          onSome: Effect.succeed
        })
      )

    /** Removes the row, its FTS entry (by trigger) and its vector, in one transaction: no soft delete. */
    const remove = (beingId: string, id: string) =>
      Effect.flatMap(owned(beingId, id), (found) =>
        sql
          .withTransaction(
            Effect.zipRight(
              found.embeddingDims === null
                ? Effect.void
                : vectors.remove({ seq: found.seq, dims: found.embeddingDims }),
              repository.remove(found.seq)
            )
          )
          .pipe(orDieOnStorageFault)
      ).pipe(spanNamed("twin.removeMemory"))

    /**
     * Embeds up to `batch` memories that have no vector of the bound model; answers how many it
     * embedded (0 when the tier is unbound, the call failed, or nothing was left).
     */
    const backfillBatch = (batch: number) =>
      Effect.gen(function* () {
        if (!bindings.embed.available) return 0
        const pending = yield* repository.unembedded({ model: bindings.embed.model, limit: batch })
        if (pending.length === 0) return 0
        const embedded = yield* embed(
          null,
          pending.map((memory) => memory.content)
        )
        if (Option.isNone(embedded)) return 0
        const { vectors: made, model } = embedded.value
        yield* sql
          .withTransaction(
            Effect.forEach(
              pending,
              (memory, index) =>
                Effect.gen(function* () {
                  const vector = made[index]!
                  if (memory.embeddingDims !== null && memory.embeddingDims !== vector.length) {
                    yield* vectors.remove({ seq: memory.seq, dims: memory.embeddingDims })
                  }
                  yield* vectors.put({ seq: memory.seq, beingId: memory.beingId, kind: memory.kind, model, vector })
                  yield* repository.markEmbedded({ seq: memory.seq, model, dims: vector.length })
                }),
              { discard: true }
            )
          )
          .pipe(orDieOnStorageFault)
        return pending.length
      }).pipe(spanNamed("twin.backfillBatch"))

    /**
     * Embedded (by the bound model) against all memories, the node's or one being's, and what that means for search.
     */
    const embeddings = (beingId: string | null) =>
      Effect.map(
        repository.coverage({ model: bindings.embed.model, beingId }),
        ({ embedded, total }): EmbeddingsStatus => {
          const { available, leavesDevice } = bindings.embed
          const notes = [
            !available
              ? "No embed tier is bound (LLM_EMBED_BASE_URL, or a key): memories are searched by words only."
              : null,
            available && embedded < total
              ? `${total - embedded} memories are not embedded yet; the backfill embeds them when the embed tier answers.`
              : null,
            leavesDevice
              ? "Memory text sent to be embedded may leave this host (a remote tier, or LOCAL_LLM_FALLBACK)."
              : null
          ].filter((note) => note !== null)
          return {
            available,
            embedded,
            total,
            leavesDevice,
            degraded: !available || embedded < total,
            note: notes.length === 0 ? null : notes.join(" ")
          }
        }
      )

    return { store, search, searchWords, remove, backfillBatch, embeddings } as const
  })
}) {}
