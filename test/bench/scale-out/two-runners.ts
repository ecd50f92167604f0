/**
 * Two processes beside one for the same load (issue 16): two node processes (host/bundled-start.ts), each
 * a socket runner at its own CLUSTER_RUNNER_ADDRESS over one throwaway PostgreSQL, the owner
 * registered through the first. The same load generator (autocannon in this process, 50
 * connections, authenticated `GET /api/auth/me`) either all on the first process's URL, or split
 * over both URLs (25 connections each), in interleaved rounds; the second process idles while
 * the first takes the load alone (a runner with no requests costs a heartbeat every 2 s). Each
 * process keeps the cluster's defaults, so its rate limits count in the database
 * (RATE_LIMIT_STORE=database): the figure is what a cluster of two serves. Where the CPU went is
 * printed beside it: the nodes, PostgreSQL, this process (the load generator, on the same two
 * cores) and everything else on the machine. `BENCH_RATE_LIMIT_STORE=memory` runs both with the
 * limits counted in each process instead, to see what the shared count costs.
 */
import { startChildNode, type ChildNode } from "../../support/child-node.ts"
import { freePort } from "../../support/free-port.ts"
import { startPostgres } from "../../support/postgres.ts"
import { fixed, machineLoad, postgresVersion, ratio, table } from "./figures.ts"
import { emptyTally, figuresOf, loadRound, ownerCookie } from "./load.ts"

const connections = 50
const rounds = 4
const roundSeconds = 2.5
const rateLimitStore = process.env.BENCH_RATE_LIMIT_STORE === "memory" ? "memory" : "database"

export const benchTwoRunners = async () => {
  const cluster = await startPostgres()
  const nodes: Array<ChildNode> = []
  try {
    const url = await cluster.createDatabase()
    const runnerEnv = async () => ({
      RATE_LIMIT_PER_MINUTE: "100000000",
      RATE_LIMIT_STORE: rateLimitStore,
      DATABASE_URL: url,
      CLUSTER_RUNNER_ADDRESS: `127.0.0.1:${await freePort()}`
    })
    // One after the other: the second finds the cluster's tables and the migrations done.
    nodes.push(await startChildNode({ env: await runnerEnv() }))
    nodes.push(await startChildNode({ env: await runnerEnv(), ownerCode: nodes[0]!.ownerCode }))
    const [a, b] = nodes as [ChildNode, ChildNode]
    const cookie = await ownerCookie(a.url, a.ownerCode)
    const one = [{ url: a.url, cookie }]
    const two = [
      { url: a.url, cookie },
      { url: b.url, cookie }
    ]
    const options = { connections, serverPids: [a.pid, b.pid], postgresPort: cluster.port }
    await loadRound(two, "/api/auth/me", { ...options, seconds: 1 })
    const tallies = { one: emptyTally(), two: emptyTally() }
    for (let round = 0; round < rounds; round++) {
      await loadRound(one, "/api/auth/me", { ...options, seconds: roundSeconds }, tallies.one)
      await loadRound(two, "/api/auth/me", { ...options, seconds: roundSeconds }, tallies.two)
    }
    const single = figuresOf(tallies.one)
    const pair = figuresOf(tallies.two)
    const busy = (f: typeof single) =>
      f.serverCpuPercent + f.postgresCpuPercent + f.generatorCpuPercent + f.otherCpuPercent
    console.log(`${await postgresVersion(url)}; ${machineLoad()}`)
    console.log(
      `${connections} connections, ${rounds} interleaved rounds of ${roundSeconds} s each after 1 s warm-up; RATE_LIMIT_STORE=${rateLimitStore}${rateLimitStore === "database" ? " (the cluster's default)" : ""}`
    )
    table([
      ["GET /api/auth/me on PostgreSQL", "1 process", "2 processes", "2/1"],
      [
        "requests/s",
        fixed(single.requestsPerSecond),
        fixed(pair.requestsPerSecond),
        ratio(pair.requestsPerSecond, single.requestsPerSecond)
      ],
      ["p50 (ms)", fixed(single.p50Ms, 2), fixed(pair.p50Ms, 2), ratio(pair.p50Ms, single.p50Ms)],
      ["p99 (ms)", fixed(single.p99Ms, 2), fixed(pair.p99Ms, 2), ratio(pair.p99Ms, single.p99Ms)],
      ["nodes' CPU (% of a core)", fixed(single.serverCpuPercent), fixed(pair.serverCpuPercent), ""],
      ["PostgreSQL's CPU (% of a core)", fixed(single.postgresCpuPercent), fixed(pair.postgresCpuPercent), ""],
      ["load generator's CPU (% of a core)", fixed(single.generatorCpuPercent), fixed(pair.generatorCpuPercent), ""],
      ["other processes' CPU (% of a core)", fixed(single.otherCpuPercent), fixed(pair.otherCpuPercent), ""],
      ["machine busy (% of a core, of 200)", fixed(busy(single)), fixed(busy(pair)), ""],
      [
        "nodes' CPU per request (µs)",
        fixed(single.serverCpuMicros),
        fixed(pair.serverCpuMicros),
        ratio(pair.serverCpuMicros, single.serverCpuMicros)
      ],
      [
        "PostgreSQL CPU per request (µs)",
        fixed(single.postgresCpuMicros),
        fixed(pair.postgresCpuMicros),
        ratio(pair.postgresCpuMicros, single.postgresCpuMicros)
      ],
      ["non-2xx + errors", String(single.failures), String(pair.failures), ""]
    ])
  } finally {
    await Promise.all(nodes.map((node) => node.close()))
    cluster.stop()
  }
}

if (import.meta.main) await benchTwoRunners()
