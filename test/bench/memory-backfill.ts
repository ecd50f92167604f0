/**
 * Embedding backfill throughput (issue 10): memories stored while the embed tier was unbound are
 * embedded by the backfill (extensions/twin/backfill.ts: batches of 32 until none is left) against
 * the scripted model server on loopback. Figure: memories embedded per second, the pass as the
 * node runs it (the embed call, the vector rows in sqlite-vec, the memory rows marked). Anchor:
 * the same embed calls (same batches, same texts) made straight to the same server, so the ratio
 * is what the twin's own storage adds to what the model server costs. 384 dimensions.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
import * as SqlClient from "@effect/sql/SqlClient"
import { randomUUID } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { backfillBatchSize, MemoryBackfill } from "../../extensions/twin/backfill.ts"
import { Memories } from "../../extensions/twin/memories.ts"
import { TwinBindings } from "../../extensions/twin/ports.ts"
import { MemoriesRepository } from "../../extensions/twin/repositories/memories-repository.ts"
import { startOpenAiServer } from "../support/openai-server.ts"
import { ada, twinServices } from "../support/twin.ts"

const memoryCount = Number(process.env.BENCH_BACKFILL_MEMORIES ?? 20_000)
const dims = 384
/** The embed model ModelsTest binds: the vectors carry it, and the backfill looks for rows without it. */
const model = "text-embedding-3-small"

/** A vector from the text alone (cheap, the same for both runs): the server's work is not what is measured. */
const vectorOf = (text: string) => {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0
  return Array.from({ length: dims }, (_, i) => Math.sin(hash + i))
}

const textOf = (n: number) => `memory ${n}: the owner noted something worth keeping about topic ${n % 97}`

const seed = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const memories = yield* MemoriesRepository
  yield* ada
  for (let start = 0; start < memoryCount; start += 1000) {
    yield* sql.withTransaction(
      Effect.forEach(
        Array.from({ length: Math.min(1000, memoryCount - start) }, (_, i) => start + i),
        (n) =>
          memories.insert({
            id: randomUUID(),
            beingId: "ada",
            kind: "fact",
            content: textOf(n),
            importance: 0.5,
            tags: [],
            source: "bench",
            createdAt: new Date(Date.UTC(2030, 0, 1) + n * 1000).toISOString()
          }),
        { discard: true }
      )
    )
  }
})

export const benchMemoryBackfill = async () => {
  const server = await startOpenAiServer()
  server.handle("embeddings", (request) => {
    const inputs = Array.isArray(request.body.input) ? request.body.input : [request.body.input]
    return { vectors: inputs.map((text) => vectorOf(String(text))) }
  })
  const dataDir = mkdtempSync(join(tmpdir(), "bench-backfill-"))
  // The backfill's own timer waits a day: the bench runs the pass itself.
  const runtime = ManagedRuntime.make(
    twinServices(
      Layer.mergeAll(MemoryBackfill.Default, Memories.Default, MemoriesRepository.Default),
      Layer.succeed(TwinBindings, { embed: { available: true, model, leavesDevice: false }, cheapAvailable: false }),
      server.baseUrl,
      { memoryBackfillIntervalMs: 86_400_000 },
      join(dataDir, "node.db")
    )
  )
  try {
    await runtime.runPromise(seed)
    const started = performance.now()
    const embedded = await runtime.runPromise(Effect.flatMap(MemoryBackfill, (backfill) => backfill.pass))
    const nodeSeconds = (performance.now() - started) / 1000
    const coverage = await runtime.runPromise(Effect.flatMap(Memories, (memories) => memories.embeddings(null)))
    if (embedded !== memoryCount || coverage.embedded !== memoryCount) {
      throw new Error(`the backfill embedded ${embedded} (coverage ${coverage.embedded}) of ${memoryCount}`)
    }

    const anchorStarted = performance.now()
    for (let start = 0; start < memoryCount; start += backfillBatchSize) {
      const input = Array.from({ length: Math.min(backfillBatchSize, memoryCount - start) }, (_, i) =>
        textOf(start + i)
      )
      const answer = await fetch(`${server.baseUrl}/embeddings`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ model, input })
      })
      const body = (await answer.json()) as { data: Array<unknown> }
      if (body.data.length !== input.length) throw new Error("the anchor's embed call answered short")
    }
    const anchorSeconds = (performance.now() - anchorStarted) / 1000

    const rate = (seconds: number) => `${Math.round(memoryCount / seconds)}/s`
    const rows = [
      ["figure", "throughput", "time", "ratio"],
      [
        `embedding backfill, ${memoryCount} memories, batches of ${backfillBatchSize}, ${dims} dims`,
        rate(nodeSeconds),
        `${nodeSeconds.toFixed(2)} s`,
        `${(anchorSeconds / nodeSeconds).toFixed(2)}× the anchor`
      ],
      [
        "anchor: the same embed calls straight to the scripted server",
        rate(anchorSeconds),
        `${anchorSeconds.toFixed(2)} s`,
        ""
      ]
    ]
    for (const row of rows) console.log(row.map((cell, index) => cell.padEnd(index === 0 ? 68 : 16)).join(""))
  } finally {
    await runtime.dispose()
    await server.close()
    rmSync(dataDir, { recursive: true, force: true })
  }
}

if (import.meta.main) await benchMemoryBackfill()
