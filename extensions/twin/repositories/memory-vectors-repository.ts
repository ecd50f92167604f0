/**
 * Memory vectors in sqlite-vec `vec0` tables, one per vector size (the embed model decides it),
 * keyed by the memory's rowid, partitioned by being, with the memory's kind and the embed model
 * as metadata so a search filters inside the index. Each vector is kept twice: whole (float32)
 * and as one bit per dimension (its sign). A search scans the bits by Hamming distance for a
 * generous candidate set, then ranks those candidates by exact cosine distance on the whole
 * vectors: at 100,000 memories the bit scan costs about half the float scan (test/bench/memory-search.ts),
 * and the exact rerank keeps the order right. The extension is loaded into the node's one
 * connection when this repository is built.
 *
 * On PostgreSQL (no sqlite-vec there, and Debian 12 ships no pgvector) the vectors are rows of
 * `twin_memory_vectors` (`embedding REAL[]`) and a search is exact: the cosine distance computed
 * in SQL over the being's vectors of that model and size (docs/decisions.md "PostgreSQL" says why
 * in SQL rather than in the process). Each operation is one function with both dialects' SQL.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as SqliteClient from "@effect/sql-sqlite-node/SqliteClient"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { getLoadablePath } from "sqlite-vec"
import { MemoryKind } from "../../../kernel/contract/memory.ts"
import { operation } from "../../../kernel/repository.ts"

/** vec0 takes a vector as JSON text; sizes are bounded so a table name can carry one safely. */
const isSize = (dims: number) => Number.isInteger(dims) && dims >= 1 && dims <= 8192

/** A bit vector's size is a whole number of bytes: the float vector is padded with zeros to it (signs unchanged). */
const bitsOf = (dims: number) => Math.ceil(dims / 8) * 8
const paddedJson = (vector: ReadonlyArray<number>) =>
  JSON.stringify([...vector, ...new Array<number>(bitsOf(vector.length) - vector.length).fill(0)])

/** Candidates the bit scan hands the exact rerank: generous, within vec0's k limit of 4096. */
const candidatesFor = (k: number) => Math.min(4096, Math.max(200, k * 5))

/** A vector as PostgreSQL's array text (`{1,-0.5,2e-7}`): one parameter, cast to an array in the statement. */
const arrayLiteral = (vector: ReadonlyArray<number>) => `{${vector.join(",")}}`

const NearRow = Schema.Struct({ seq: Schema.Number, distance: Schema.Number })

export class MemoryVectorsRepository extends Effect.Service<MemoryVectorsRepository>()("twin/MemoryVectorsRepository", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    // Only SQLite takes the extension; PostgreSQL's vectors are plain rows.
    const sqlite = yield* Effect.serviceOption(SqliteClient.SqliteClient)
    if (sqlite._tag === "Some") yield* Effect.orDie(sqlite.value.loadExtension(getLoadablePath()))

    const tableOf = (dims: number) => {
      if (!isSize(dims)) throw new Error(`An embedding of ${dims} dimensions is not one the memory stores.`)
      return sql.literal(`twin_memory_vectors_${dims}`)
    }

    // Made once per size per process; IF NOT EXISTS covers a table made before a restart.
    const made = new Set<number>()
    const ensureTable = (dims: number) =>
      made.has(dims)
        ? Effect.void
        : Effect.tap(
            sql`CREATE VIRTUAL TABLE IF NOT EXISTS ${tableOf(dims)} USING vec0(
              being_id TEXT PARTITION KEY, kind TEXT, model TEXT,
              coarse bit[${sql.literal(String(bitsOf(dims)))}], embedding float[${sql.literal(String(dims))}]
            )`,
            () => Effect.sync(() => made.add(dims))
          )

    /** Writes (or replaces) the memory's vector. */
    const put = operation(
      "twin.putVector",
      SqlSchema.void({
        Request: Schema.Struct({
          seq: Schema.Number,
          beingId: Schema.String,
          kind: MemoryKind,
          model: Schema.String,
          vector: Schema.Array(Schema.Number)
        }),
        execute: ({ seq, beingId, kind, model, vector }) =>
          sql.onDialectOrElse({
            pg: () => sql`INSERT INTO twin_memory_vectors (seq, being_id, kind, model, dims, embedding)
            VALUES (${seq}, ${beingId}, ${kind}, ${model}, ${vector.length}, ${arrayLiteral(vector)}::real[])
            ON CONFLICT (seq) DO UPDATE SET being_id = excluded.being_id, kind = excluded.kind, model = excluded.model,
              dims = excluded.dims, embedding = excluded.embedding`,
            orElse: () =>
              Effect.gen(function* () {
                yield* ensureTable(vector.length)
                const table = tableOf(vector.length)
                yield* sql`DELETE FROM ${table} WHERE rowid = ${seq}`
                yield* sql`INSERT INTO ${table} (rowid, being_id, kind, model, coarse, embedding)
              VALUES (CAST(${seq} AS INTEGER), ${beingId}, ${kind}, ${model}, vec_quantize_binary(${paddedJson(vector)}), ${JSON.stringify(vector)})`
              })
          })
      })
    )

    /** The being's `k` memories nearest the vector (cosine distance, 0 = same direction), of that model and kind. */
    const nearest = operation(
      "twin.nearestVectors",
      SqlSchema.findAll({
        Request: Schema.Struct({
          beingId: Schema.String,
          kind: Schema.NullOr(MemoryKind),
          model: Schema.String,
          vector: Schema.Array(Schema.Number),
          k: Schema.Number
        }),
        Result: NearRow,
        execute: ({ beingId, kind, model, vector, k }) => {
          const ofKind = kind === null ? sql`` : sql`AND kind = ${kind}`
          return sql.onDialectOrElse({
            // Exact: for every vector of the being, model and size, its cosine distance to the query,
            // summed element by element over unnest in double precision (one subquery per row is
            // faster than grouping the pairs of all rows). A zero vector has no direction: distance 1.
            pg: () => sql`SELECT v.seq AS seq, COALESCE((
              SELECT 1 - SUM(e::float8 * q) / NULLIF(SQRT(SUM(e::float8 * e)) * SQRT(SUM(q::float8 * q)), 0)
              FROM unnest(v.embedding, ${arrayLiteral(vector)}::real[]) AS pair(e, q)
            ), 1) AS distance
            FROM twin_memory_vectors v
            WHERE v.being_id = ${beingId} AND v.model = ${model} AND v.dims = ${vector.length} ${ofKind}
            ORDER BY distance, v.seq LIMIT ${k}`,
            orElse: () =>
              Effect.flatMap(ensureTable(vector.length), () => {
                const table = tableOf(vector.length)
                return sql`WITH candidates AS (
                SELECT rowid FROM ${table}
                WHERE coarse MATCH vec_quantize_binary(${paddedJson(vector)}) AND k = CAST(${candidatesFor(k)} AS INTEGER)
                AND being_id = ${beingId} AND model = ${model} ${ofKind}
              )
              SELECT v.rowid AS seq, vec_distance_cosine(v.embedding, ${JSON.stringify(vector)}) AS distance
              FROM ${table} v JOIN candidates c ON c.rowid = v.rowid
              ORDER BY distance, v.rowid LIMIT ${k}`
              })
          })
        }
      })
    )

    const remove = operation(
      "twin.removeVector",
      SqlSchema.void({
        Request: Schema.Struct({ seq: Schema.Number, dims: Schema.Number }),
        execute: ({ seq, dims }) =>
          sql.onDialectOrElse({
            pg: () => sql`DELETE FROM twin_memory_vectors WHERE seq = ${seq}`,
            orElse: () =>
              Effect.flatMap(ensureTable(dims), () => sql`DELETE FROM ${tableOf(dims)} WHERE rowid = ${seq}`)
          })
      })
    )

    return { put, nearest, remove } as const
  })
}) {}
