/**
 * The load on GET /api/auth/me: autocannon in this process, the servers taking turns in
 * interleaved rounds, and the figures of each: throughput, latency, and the CPU the server, the
 * load generator and every other process on the machine took meanwhile.
 */
import { type AutocannonResult, autocannon, cpuSeconds, machineBusySeconds } from "../scale-out/load.ts"
import type { Server } from "../spawned-server.ts"
import { CONNECTIONS, log, ROUNDS, SECONDS, WARMUP_SECONDS } from "./settings.ts"

const percentile = (sorted: Float64Array, p: number) =>
  sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]

const runAutocannon = (url: string, cookie: string, seconds: number, onLatency?: (ms: number) => void) =>
  new Promise<AutocannonResult>((resolveRun, reject) => {
    const instance = autocannon(
      { url, connections: CONNECTIONS, duration: seconds, headers: { cookie } },
      (error, result) => (error === null ? resolveRun(result) : reject(error))
    )
    if (onLatency !== undefined) {
      instance.on("response", (_client, status, _bytes, ms) => {
        if (status === 200) onLatency(ms)
      })
    }
  })

interface LoadTally {
  ok: number
  seconds: number
  wallSeconds: number
  serverCpu: number
  selfCpu: number
  othersCpu: number
  non2xx: number
  errors: number
  readonly latencies: Array<number>
}

export interface LoadFigures {
  readonly requestsPerSecond: number
  readonly p50Ms: number
  readonly p99Ms: number
  readonly serverCpuMicrosPerRequest: number
  readonly serverCpuPercent: number
  readonly loadGeneratorCpuPercent: number
  /** CPU that processes other than the bench and its servers took while this one was loaded. */
  readonly otherProcessesCpuPercent: number
  readonly non2xx: number
  readonly errors: number
}

/**
 * Latency comes from autocannon's per-response times (sub-millisecond), not from its histogram,
 * which rounds to whole milliseconds.
 */
const loadRound = async (
  server: Server,
  cookie: string,
  seconds: number,
  tally: LoadTally,
  everyPid: ReadonlyArray<number>
) => {
  const serverBefore = cpuSeconds(server.pid)
  const oursBefore = everyPid.reduce((sum, pid) => sum + cpuSeconds(pid), 0)
  const machineBefore = machineBusySeconds()
  const selfBefore = process.cpuUsage()
  const wallBefore = performance.now()
  const result = await runAutocannon(`${server.url}/api/auth/me`, cookie, seconds, (ms) => tally.latencies.push(ms))
  const wallSeconds = (performance.now() - wallBefore) / 1000
  const self = process.cpuUsage(selfBefore)
  const selfCpu = (self.user + self.system) / 1e6
  const oursCpu = everyPid.reduce((sum, pid) => sum + cpuSeconds(pid), 0) - oursBefore + selfCpu
  tally.ok += result["2xx"]
  tally.seconds += result.duration
  tally.wallSeconds += wallSeconds
  tally.serverCpu += cpuSeconds(server.pid) - serverBefore
  tally.selfCpu += selfCpu
  tally.othersCpu += Math.max(0, machineBusySeconds() - machineBefore - oursCpu)
  tally.non2xx += result.non2xx
  tally.errors += result.errors + result.timeouts
}

const figuresOf = (tally: LoadTally): LoadFigures => {
  const sorted = Float64Array.from(tally.latencies).sort()
  return {
    requestsPerSecond: tally.ok / tally.seconds,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    serverCpuMicrosPerRequest: tally.ok === 0 ? Number.NaN : (tally.serverCpu * 1e6) / tally.ok,
    serverCpuPercent: (tally.serverCpu / tally.wallSeconds) * 100,
    loadGeneratorCpuPercent: (tally.selfCpu / tally.wallSeconds) * 100,
    otherProcessesCpuPercent: (tally.othersCpu / tally.wallSeconds) * 100,
    non2xx: tally.non2xx,
    errors: tally.errors
  }
}

const emptyTally = (): LoadTally => ({
  ok: 0,
  seconds: 0,
  wallSeconds: 0,
  serverCpu: 0,
  selfCpu: 0,
  othersCpu: 0,
  non2xx: 0,
  errors: 0,
  latencies: []
})

/**
 * Rounds rather than one long run per server, so a neighbour that takes CPU for a while weighs on
 * all of them: a warm-up each, then SECONDS of load each, split over ROUNDS rounds, in the order
 * of `servers`. `cookie`: one session for all (the anchors read the node's own database), or one
 * per server (nodes of their own, as the rate-limit section's).
 */
export const interleavedLoad = async <T extends string>(
  servers: Record<T, Server>,
  cookie: string | Record<T, string>
): Promise<Record<T, LoadFigures>> => {
  const names = Object.keys(servers) as Array<T>
  const cookieOf = (name: T) => (typeof cookie === "string" ? cookie : cookie[name])
  const tallies = Object.fromEntries(names.map((name) => [name, emptyTally()])) as Record<T, LoadTally>
  log("warming up each server")
  for (const name of names) await runAutocannon(`${servers[name].url}/api/auth/me`, cookieOf(name), WARMUP_SECONDS)
  const roundSeconds = SECONDS / ROUNDS
  const everyPid = names.map((name) => servers[name].pid)
  for (let round = 1; round <= ROUNDS; round++) {
    log(`round ${round}/${ROUNDS}: ${roundSeconds} s each on ${names.join(", ")}`)
    for (const name of names) await loadRound(servers[name], cookieOf(name), roundSeconds, tallies[name], everyPid)
  }
  return Object.fromEntries(names.map((name) => [name, figuresOf(tallies[name])])) as Record<T, LoadFigures>
}
