/**
 * What counting rate limits in the database costs (issue 27): two nodes as the auth-me section
 * runs them (host/main.ts, each its own process on a fresh data dir, RATE_LIMIT_PER_MINUTE high
 * enough that the load meets no 429), one with RATE_LIMIT_STORE=database, one with
 * RATE_LIMIT_STORE=memory, under the same authenticated `GET /api/auth/me` load in interleaved
 * rounds (auth-me/load.ts; its knobs in auth-me/settings.ts). The figure is the node's CPU per
 * request with the database store over the same with the memory store, aim ≤ 1.2×: the database
 * store makes an upsert per budget a request spends. The database here is the node's SQLite, in
 * the node's process; a cluster's is PostgreSQL, where part of the cost falls in PostgreSQL's own
 * processes (scale-out/two-runners.ts, BENCH_RATE_LIMIT_STORE=memory beside its default). Prints
 * figures; fails only when it could not measure.
 */
import Database from "better-sqlite3"
import { join } from "node:path"
import { interleavedLoad, type LoadFigures } from "./auth-me/load.ts"
import { register, startNode } from "./auth-me/servers.ts"
import { stop } from "./spawned-server.ts"
import { CONNECTIONS, ROUNDS, SECONDS, WARMUP_SECONDS } from "./auth-me/settings.ts"
import { table } from "./scale-out/figures.ts"
import { meets, recordVerdict } from "./verdicts.ts"

/** CPU per request with the database store over the memory store's (issue 27). */
const aimOfMemory = 1.2

/** Hits counted in the node's rate_windows table: none unless its limits count in the database. */
const countedInDatabase = (dataDir: string) => {
  const db = new Database(join(dataDir, "node.db"), { readonly: true })
  try {
    return (db.prepare("SELECT count(*) AS n FROM rate_windows").get() as { n: number }).n
  } finally {
    db.close()
  }
}

export const benchRateLimit = async () => {
  const memory = await startNode({ RATE_LIMIT_STORE: "memory" })
  const database = await startNode({ RATE_LIMIT_STORE: "database" })
  try {
    const cookies = {
      memory: await register(memory.server, memory.accessCode),
      database: await register(database.server, database.accessCode)
    }
    const load = await interleavedLoad({ memory: memory.server, database: database.server }, cookies)
    // The setting took where it should: otherwise the two nodes would be the same and the ratio say nothing.
    if (countedInDatabase(database.dataDir) === 0 || countedInDatabase(memory.dataDir) !== 0) {
      throw new Error("RATE_LIMIT_STORE did not take: rate_windows holds counts on the wrong node")
    }
    const fixed = (value: number, digits = 0) => (Number.isFinite(value) ? value.toFixed(digits) : "n/a")
    const ratio = load.database.serverCpuMicrosPerRequest / load.memory.serverCpuMicrosPerRequest
    console.log(
      `${CONNECTIONS} connections, ${SECONDS} s per node in ${ROUNDS} interleaved rounds after ${WARMUP_SECONDS} s warm-up; the node's SQLite`
    )
    const row = (label: string, pick: (figures: LoadFigures) => number, digits: number) => [
      label,
      fixed(pick(load.memory), digits),
      fixed(pick(load.database), digits),
      fixed(pick(load.database) / pick(load.memory), 2)
    ]
    table([
      ["GET /api/auth/me", "RATE_LIMIT_STORE=memory", "RATE_LIMIT_STORE=database", "database/memory"],
      row("requests/s", (f) => f.requestsPerSecond, 0),
      row("p50 (ms)", (f) => f.p50Ms, 2),
      row("p99 (ms)", (f) => f.p99Ms, 2),
      row("node CPU per request (µs)", (f) => f.serverCpuMicrosPerRequest, 1),
      row("other processes' CPU meanwhile (% of a core)", (f) => f.otherProcessesCpuPercent, 0),
      [
        "non-2xx / errors",
        `${load.memory.non2xx}/${load.memory.errors}`,
        `${load.database.non2xx}/${load.database.errors}`,
        ""
      ]
    ])
    recordVerdict({
      figure: "the database rate-limit store: CPU per GET /api/auth/me",
      measured: `${fixed(load.database.serverCpuMicrosPerRequest)} µs, ${fixed(ratio, 2)}× the memory store's`,
      anchor: `RATE_LIMIT_STORE=memory ${fixed(load.memory.serverCpuMicrosPerRequest)} µs`,
      aim: `≤ ${aimOfMemory}× the memory store's`,
      met: meets(ratio, (r) => r <= aimOfMemory)
    })
  } finally {
    await Promise.all([stop(memory.server), stop(database.server)])
  }
}

if (import.meta.main) await benchRateLimit()
