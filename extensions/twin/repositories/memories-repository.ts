/**
 * The `twin_memories` table and its FTS5 index. Every read names the being, so one being's
 * memories never reach another's answer. The word search is the one dialect-specific operation
 * here (FTS5 on SQLite, a tsvector on PostgreSQL); the rest is portable SQL.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { Memory, MemoryKind } from "../../../kernel/contract/memory.ts"
import { JsonColumn, operation } from "../../../kernel/repository.ts"

/** A memory as stored: the record, its being, its rowid and which embed model its vector came from. */
export const StoredMemory = Schema.Struct({
  ...Memory.fields,
  tags: JsonColumn(Schema.Array(Schema.String)),
  seq: Schema.Number,
  beingId: Schema.String,
  embeddingModel: Schema.NullOr(Schema.String),
  embeddingDims: Schema.NullOr(Schema.Number)
})
export type StoredMemory = typeof StoredMemory.Type

const NewRow = Schema.Struct({
  ...Memory.fields,
  tags: JsonColumn(Schema.Array(Schema.String)),
  beingId: Schema.String
})
export type NewMemoryRow = typeof NewRow.Type

const SeqRow = Schema.Struct({ seq: Schema.Number })
const CountRow = Schema.Struct({ total: Schema.Number, embedded: Schema.Number })

const columns = `seq, id, being_id AS "beingId", kind, content, importance, tags, source, created_at AS "createdAt",
  embedding_model AS "embeddingModel", embedding_dims AS "embeddingDims"`

/** The words a search matches in what a person typed: letters and digits only, so no operator survives. */
export const searchWordsOf = (text: string): ReadonlyArray<string> => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []

/** The text FTS5 matches for the words: each quoted, any of them, the last as a prefix. */
const ftsQueryOf = (words: ReadonlyArray<string>) =>
  words.map((word, index) => `"${word}"${index === words.length - 1 ? "*" : ""}`).join(" OR ")

/**
 * The same for PostgreSQL's to_tsquery: any word (`|`), the last as a prefix (`:*`). Letters and
 * digits only, so nothing in it is tsquery syntax; an English stop word drops out of the query.
 */
const tsQueryOf = (words: ReadonlyArray<string>) =>
  words.map((word, index) => `${word}${index === words.length - 1 ? ":*" : ""}`).join(" | ")

export class MemoriesRepository extends Effect.Service<MemoriesRepository>()("twin/MemoriesRepository", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const all = sql.literal(columns)

    /** Writes the row (its FTS entry follows by trigger) and answers its rowid. */
    const insertReturning = SqlSchema.single({
      Request: NewRow,
      Result: SeqRow,
      execute: (row) =>
        sql`INSERT INTO twin_memories ${sql.insert({
          id: row.id,
          being_id: row.beingId,
          kind: row.kind,
          content: row.content,
          importance: row.importance,
          tags: row.tags,
          source: row.source,
          created_at: row.createdAt
        })} RETURNING seq`
    })
    // A statement that always answers one row (INSERT ... RETURNING, a COUNT) answering none is a storage fault.
    const insert = operation("twin.insertMemory", (row: NewMemoryRow) =>
      Effect.catchIf(insertReturning(row), Cause.isNoSuchElementException, Effect.die)
    )

    const findOwned = operation(
      "twin.findMemory",
      SqlSchema.findOne({
        Request: Schema.Struct({ beingId: Schema.String, id: Schema.String }),
        Result: StoredMemory,
        execute: ({ beingId, id }) => sql`SELECT ${all} FROM twin_memories WHERE id = ${id} AND being_id = ${beingId}`
      })
    )

    /** Removes the row; its FTS entry goes with it by trigger (the vector is the vectors repository's). */
    const remove = operation(
      "twin.removeMemory",
      SqlSchema.void({
        Request: Schema.Number,
        execute: (seq) => sql`DELETE FROM twin_memories WHERE seq = ${seq}`
      })
    )

    const newest = operation(
      "twin.newestMemories",
      SqlSchema.findAll({
        Request: Schema.Struct({
          beingId: Schema.String,
          kind: Schema.NullOr(MemoryKind),
          limit: Schema.Number,
          offset: Schema.Number
        }),
        Result: StoredMemory,
        execute: ({ beingId, kind, limit, offset }) => sql`SELECT ${all} FROM twin_memories
        WHERE being_id = ${beingId} ${kind === null ? sql`` : sql`AND kind = ${kind}`}
        ORDER BY created_at DESC, seq DESC LIMIT ${limit} OFFSET ${offset}`
      })
    )

    /** The being's memories past a rowid, newest first: what a reflection has not read yet. */
    const newerThan = operation(
      "twin.memoriesNewerThan",
      SqlSchema.findAll({
        Request: Schema.Struct({ beingId: Schema.String, seq: Schema.Number, limit: Schema.Number }),
        Result: StoredMemory,
        execute: ({ beingId, seq, limit }) => sql`SELECT ${all} FROM twin_memories
        WHERE being_id = ${beingId} AND seq > ${seq} ORDER BY seq DESC LIMIT ${limit}`
      })
    )

    const bySeqs = operation(
      "twin.memoriesBySeq",
      SqlSchema.findAll({
        Request: Schema.Struct({ beingId: Schema.String, seqs: Schema.Array(Schema.Number) }),
        Result: StoredMemory,
        execute: ({ beingId, seqs }) =>
          sql`SELECT ${all} FROM twin_memories WHERE being_id = ${beingId} AND ${sql.in("seq", seqs)}`
      })
    )

    /**
     * The being's memories whose words match any of `words` (the last as a prefix, typing goes on),
     * best first. The one dialect-specific operation here: on SQLite FTS5's MATCH ranked by bm25();
     * on PostgreSQL the generated `search` tsvector (GIN-indexed, the migration's 'english' config,
     * so the query stems alike) matched by a tsquery of the same words, ranked by ts_rank.
     */
    const wordSearch = operation(
      "twin.wordSearch",
      SqlSchema.findAll({
        Request: Schema.Struct({
          beingId: Schema.String,
          words: Schema.Array(Schema.String),
          kind: Schema.NullOr(MemoryKind),
          limit: Schema.Number
        }),
        Result: SeqRow,
        execute: ({ beingId, words, kind, limit }) => {
          const ofKind = kind === null ? sql`` : sql`AND m.kind = ${kind}`
          return sql.onDialectOrElse({
            pg: () => sql`SELECT m.seq AS seq FROM twin_memories m, to_tsquery('english', ${tsQueryOf(words)}) q
            WHERE m.search @@ q AND m.being_id = ${beingId} ${ofKind}
            ORDER BY ts_rank(m.search, q) DESC, m.seq DESC LIMIT ${limit}`,
            orElse: () => sql`SELECT m.seq AS seq FROM twin_memories_fts f
            JOIN twin_memories m ON m.seq = f.rowid
            WHERE twin_memories_fts MATCH ${ftsQueryOf(words)} AND m.being_id = ${beingId} ${ofKind}
            ORDER BY bm25(twin_memories_fts), m.seq DESC LIMIT ${limit}`
          })
        }
      })
    )

    /** Memories with no vector from `model` yet (never embedded, or by another model), oldest first. */
    const unembedded = operation(
      "twin.unembeddedMemories",
      SqlSchema.findAll({
        Request: Schema.Struct({ model: Schema.String, limit: Schema.Number }),
        Result: StoredMemory,
        execute: ({ model, limit }) => sql`SELECT ${all} FROM twin_memories
        WHERE embedding_model IS NULL OR embedding_model != ${model} ORDER BY seq LIMIT ${limit}`
      })
    )

    const markEmbedded = operation(
      "twin.markEmbedded",
      SqlSchema.void({
        Request: Schema.Struct({ seq: Schema.Number, model: Schema.String, dims: Schema.Number }),
        execute: ({ seq, model, dims }) =>
          sql`UPDATE twin_memories SET embedding_model = ${model}, embedding_dims = ${dims} WHERE seq = ${seq}`
      })
    )

    /** How many memories there are, and how many carry a vector of `model` (the node's, or one being's). */
    const countCoverage = SqlSchema.single({
      Request: Schema.Struct({ model: Schema.String, beingId: Schema.NullOr(Schema.String) }),
      Result: CountRow,
      execute: ({ model, beingId }) => sql`SELECT COUNT(*) AS total,
        COALESCE(SUM(CASE WHEN embedding_model = ${model} THEN 1 ELSE 0 END), 0) AS embedded
        FROM twin_memories ${beingId === null ? sql`` : sql`WHERE being_id = ${beingId}`}`
    })
    const coverage = operation(
      "twin.embeddingCoverage",
      (request: { readonly model: string; readonly beingId: string | null }) =>
        Effect.catchIf(countCoverage(request), Cause.isNoSuchElementException, Effect.die)
    )

    /** Which of these sources the being already has a memory from: a provider sync's items already remembered. */
    const knownSources = operation(
      "twin.knownMemorySources",
      SqlSchema.findAll({
        Request: Schema.Struct({ beingId: Schema.String, sources: Schema.Array(Schema.String) }),
        Result: Schema.Struct({ source: Schema.String }),
        execute: ({ beingId, sources }) =>
          sql`SELECT DISTINCT source FROM twin_memories WHERE being_id = ${beingId} AND ${sql.in("source", sources)}`
      })
    )

    return {
      insert,
      findOwned,
      remove,
      newest,
      newerThan,
      bySeqs,
      knownSources,
      wordSearch,
      unembedded,
      markEmbedded,
      coverage
    } as const
  })
}) {}
