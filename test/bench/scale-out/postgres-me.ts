/**
 * `GET /api/auth/me` on PostgreSQL beside SQLite (issue 16): the same node code (host/bundled-start.ts,
 * each its own process, one runner each), one on a throwaway PostgreSQL (`DATABASE_URL`), one on
 * its SQLite file, each with its owner registered; the same load generator (autocannon in this
 * process, 50 connections) on each in interleaved rounds, so a neighbour's busy moment weighs on
 * both. The session is cached after its first read, so this is mostly the request path; the
 * PostgreSQL server's own CPU is counted beside the node's.
 */
import { startChildNode, type ChildNode } from "../../support/child-node.ts"
import { startPostgres } from "../../support/postgres.ts"
import { fixed, machineLoad, postgresVersion, ratio, table } from "./figures.ts"
import { emptyTally, figuresOf, loadRound, ownerCookie } from "./load.ts"

const connections = 50
const rounds = 4
const roundSeconds = 2.5

export const benchPostgresMe = async () => {
  const cluster = await startPostgres()
  const nodes: Array<ChildNode> = []
  try {
    const url = await cluster.createDatabase()
    const env = { RATE_LIMIT_PER_MINUTE: "100000000" }
    nodes.push(await startChildNode({ env }), await startChildNode({ env: { ...env, DATABASE_URL: url } }))
    const [sqlite, postgres] = nodes as [ChildNode, ChildNode]
    const targets = await Promise.all(
      nodes.map(async (node) => ({ url: node.url, cookie: await ownerCookie(node.url, node.ownerCode) }))
    )
    const pids = nodes.map((node) => node.pid)
    const tallies = [emptyTally(), emptyTally()]
    for (const [i, target] of targets.entries())
      await loadRound([target], "/api/auth/me", { connections, seconds: 1, serverPids: [pids[i]!] })
    for (let round = 0; round < rounds; round++) {
      for (const [i, target] of targets.entries()) {
        await loadRound(
          [target],
          "/api/auth/me",
          { connections, seconds: roundSeconds, serverPids: [pids[i]!], postgresPort: cluster.port },
          tallies[i]
        )
      }
    }
    const [onSqlite, onPostgres] = tallies.map(figuresOf) as [
      ReturnType<typeof figuresOf>,
      ReturnType<typeof figuresOf>
    ]
    console.log(`${await postgresVersion(url)}; ${machineLoad()}`)
    console.log(
      `${connections} connections, ${rounds} interleaved rounds of ${roundSeconds} s each after 1 s warm-up; node processes ${sqlite.url}, ${postgres.url}`
    )
    table([
      ["GET /api/auth/me", "SQLite", "PostgreSQL", "PG/SQLite"],
      [
        "requests/s",
        fixed(onSqlite.requestsPerSecond),
        fixed(onPostgres.requestsPerSecond),
        ratio(onPostgres.requestsPerSecond, onSqlite.requestsPerSecond)
      ],
      ["p50 (ms)", fixed(onSqlite.p50Ms, 2), fixed(onPostgres.p50Ms, 2), ratio(onPostgres.p50Ms, onSqlite.p50Ms)],
      ["p99 (ms)", fixed(onSqlite.p99Ms, 2), fixed(onPostgres.p99Ms, 2), ratio(onPostgres.p99Ms, onSqlite.p99Ms)],
      [
        "node CPU per request (µs)",
        fixed(onSqlite.serverCpuMicros),
        fixed(onPostgres.serverCpuMicros),
        ratio(onPostgres.serverCpuMicros, onSqlite.serverCpuMicros)
      ],
      ["PostgreSQL CPU per request (µs)", "—", fixed(onPostgres.postgresCpuMicros, 1), ""],
      [
        "load generator CPU (% of a core)",
        fixed(onSqlite.generatorCpuPercent),
        fixed(onPostgres.generatorCpuPercent),
        ""
      ],
      ["other processes' CPU (% of a core)", fixed(onSqlite.otherCpuPercent), fixed(onPostgres.otherCpuPercent), ""],
      ["non-2xx + errors", String(onSqlite.failures), String(onPostgres.failures), ""]
    ])
  } finally {
    await Promise.all(nodes.map((node) => node.close()))
    cluster.stop()
  }
}

if (import.meta.main) await benchPostgresMe()
