/**
 * The twin's k-NN on PostgreSQL (no pgvector on Debian 12): an exact search over one being's
 * 10,000 stored REAL[] vectors, two ways, on a throwaway cluster. "in SQL" is the repository's
 * (cosine distance summed over unnest in the server, the top k sent back); "in the process"
 * reads the being's vectors in one query and ranks them in JavaScript. p50/p99 of 20 queries
 * each, k = 80 (what a hybrid search asks for). `BENCH_DIMS` sets the size (384 by default; 1536
 * is a hosted embed model's). `npm run bench -- memory-vectors-postgres` runs it alone.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import { MemoryVectorsRepository } from "../../extensions/twin/repositories/memory-vectors-repository.ts"
import { migrations } from "../../host/migrations.ts"
import { migrationsLayer, postgresLayer } from "../../kernel/database.ts"
import { startPostgres } from "../support/postgres.ts"

const vectorCount = 10_000
const dims = Number(process.env.BENCH_DIMS ?? 384)
const queries = 20
const k = 80
const model = "bench-embed"

const random = (() => {
  let seed = 16
  return () => {
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
})()
const vectorOf = () => Array.from({ length: dims }, () => random() - 0.5)

const cosineDistance = (a: ReadonlyArray<number>, b: ReadonlyArray<number>) => {
  let dot = 0
  let aa = 0
  let bb = 0
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!
    aa += a[i]! * a[i]!
    bb += b[i]! * b[i]!
  }
  return aa === 0 || bb === 0 ? 1 : 1 - dot / Math.sqrt(aa * bb)
}

const Stored = Schema.Struct({ seq: Schema.Number, embedding: Schema.Array(Schema.Number) })

const percentile = (sorted: ReadonlyArray<number>, p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!

const timed = async (label: string, search: () => Promise<ReadonlyArray<number>>) => {
  const times: Array<number> = []
  let first: ReadonlyArray<number> = []
  for (let i = 0; i < queries; i++) {
    const started = performance.now()
    const seqs = await search()
    times.push(performance.now() - started)
    if (i === 0) first = seqs
  }
  times.sort((a, b) => a - b)
  console.log(`${label}: p50 ${percentile(times, 50).toFixed(1)} ms, p99 ${percentile(times, 99).toFixed(1)} ms`)
  return first
}

export const benchMemoryVectorsPostgres = async () => {
  const cluster = await startPostgres()
  try {
    const url = await cluster.createDatabase()
    const database = Layer.provideMerge(migrationsLayer(migrations), postgresLayer(Redacted.make(url)))
    const runtime = ManagedRuntime.make(Layer.provideMerge(MemoryVectorsRepository.Default, Layer.orDie(database)))
    try {
      await runtime.runPromise(
        Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          // Rows the vectors hang off (a being, its memories), written in bulk: the bench times searches.
          yield* sql`INSERT INTO beings (id, kind, handle, display_name, email, password_hash, is_owner, created_at)
          VALUES ('ada', 'human', 'ada', 'Ada', 'ada@example.org', 'x', 0, '2026-11-24T00:00:00.000Z')`
          yield* sql`INSERT INTO twin_memories (seq, id, being_id, kind, content, importance, tags, source, created_at)
          SELECT n, 'm' || n, 'ada', 'fact', 'memory ' || n, 0.5, '[]', 'bench', '2026-11-24T00:00:00.000Z'
          FROM generate_series(1, ${vectorCount}) AS n`
          const vectors = yield* MemoryVectorsRepository
          yield* Effect.forEach(
            Array.from({ length: vectorCount }, (_, i) => i + 1),
            (seq) => vectors.put({ seq, beingId: "ada", kind: "fact", model, vector: vectorOf() }),
            { concurrency: 8, discard: true }
          )
          yield* sql`ANALYZE twin_memory_vectors`
        })
      )
      console.log(`${vectorCount} vectors of ${dims} dimensions, one being, k = ${k}`)

      const query = vectorOf()
      const inSql = await timed("in SQL (unnest, the repository's)", () =>
        runtime.runPromise(
          Effect.map(
            Effect.flatMap(MemoryVectorsRepository, (vectors) =>
              vectors.nearest({ beingId: "ada", kind: null, model, vector: query, k })
            ),
            (rows) => rows.map((row) => row.seq)
          )
        )
      )
      const inProcess = await timed("in the process (one read, ranked in JavaScript)", () =>
        runtime.runPromise(
          Effect.gen(function* () {
            const sql = yield* SqlClient.SqlClient
            const rows = yield* Effect.flatMap(
              sql`SELECT seq, embedding FROM twin_memory_vectors WHERE being_id = 'ada' AND model = ${model} AND dims = ${dims}`,
              Schema.decodeUnknown(Schema.Array(Stored))
            )
            return rows
              .map((row) => ({ seq: row.seq, distance: cosineDistance(row.embedding, query) }))
              .sort((a, b) => a.distance - b.distance || a.seq - b.seq)
              .slice(0, k)
              .map((row) => row.seq)
          }).pipe(Effect.orDie)
        )
      )
      console.log(`same neighbours both ways: ${inSql.join() === inProcess.join() ? "yes" : "no"}`)
    } finally {
      await runtime.dispose()
    }
  } finally {
    cluster.stop()
  }
}
