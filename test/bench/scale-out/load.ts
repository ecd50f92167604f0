/**
 * Load and its cost for the scale-out sections: autocannon (in this process, as the auth-me
 * section runs it) on one or several URLs at once, the connections shared between them, with
 * per-response latencies, and the CPU each server, PostgreSQL and this process (the load
 * generator) used meanwhile, read from /proc.
 */
import { spawnSync } from "node:child_process"
import { readdirSync, readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { person } from "../../support/person.ts"

export interface AutocannonResult {
  readonly duration: number
  readonly errors: number
  readonly timeouts: number
  readonly non2xx: number
  readonly "2xx": number
}
interface AutocannonInstance {
  on(event: "response", listener: (client: unknown, status: number, bytes: number, ms: number) => void): void
}
type Autocannon = (
  options: { url: string; connections: number; duration: number; headers?: Record<string, string> },
  done: (error: Error | null, result: AutocannonResult) => void
) => AutocannonInstance
export const autocannon = createRequire(import.meta.url)("autocannon") as Autocannon

const clockTicks = Number(spawnSync("getconf", ["CLK_TCK"]).stdout?.toString().trim()) || 100

/** CPU seconds (user + system) a process has used so far; 0 once it is gone. */
export const cpuSeconds = (pid: number) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    return (Number(fields[11]) + Number(fields[12])) / clockTicks
  } catch {
    return 0
  }
}

/** CPU seconds the whole machine has been busy (every core). */
export const machineBusySeconds = () => {
  const fields = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1).map(Number)
  const [user, nice, system, , , irq, softirq, steal] = fields as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number
  ]
  return (user + nice + system + irq + softirq + steal) / clockTicks
}

const parentOf = (pid: number) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1])
  } catch {
    return -1
  }
}

/** The PostgreSQL server listening on `port` and its backends: their pids, now. */
export const postgresPids = (port: number) => {
  const pids = readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
  const postmaster = pids.find((pid) => {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0")
      return cmdline[0]!.endsWith("/postgres") && cmdline.join(" ").includes(`-p ${port}`)
    } catch {
      return false
    }
  })
  return postmaster === undefined ? [] : [postmaster, ...pids.filter((pid) => parentOf(pid) === postmaster)]
}

export interface Target {
  readonly url: string
  readonly cookie: string
}

export interface Tally {
  ok: number
  seconds: number
  wallSeconds: number
  non2xx: number
  errors: number
  serverCpu: number
  postgresCpu: number
  generatorCpu: number
  machineCpu: number
  readonly latencies: Array<number>
}

export const emptyTally = (): Tally => ({
  ok: 0,
  seconds: 0,
  wallSeconds: 0,
  non2xx: 0,
  errors: 0,
  serverCpu: 0,
  postgresCpu: 0,
  generatorCpu: 0,
  machineCpu: 0,
  latencies: []
})

const hit = (target: Target, path: string, connections: number, seconds: number, onLatency?: (ms: number) => void) =>
  new Promise<AutocannonResult>((resolve, reject) => {
    const instance = autocannon(
      { url: `${target.url}${path}`, connections, duration: seconds, headers: { cookie: target.cookie } },
      (error, result) => (error === null ? resolve(result) : reject(error))
    )
    if (onLatency !== undefined)
      instance.on("response", (_client, status, _bytes, ms) => status === 200 && onLatency(ms))
  })

/**
 * `seconds` of GET `path` over `targets` at once (`connections` split evenly), added to `tally`:
 * the servers' CPU (`serverPids`), PostgreSQL's (`postgresPort`, when given) and this process's.
 */
export const loadRound = async (
  targets: ReadonlyArray<Target>,
  path: string,
  options: { connections: number; seconds: number; serverPids: ReadonlyArray<number>; postgresPort?: number },
  tally?: Tally
) => {
  const pg = options.postgresPort === undefined ? [] : postgresPids(options.postgresPort)
  const sum = (pids: ReadonlyArray<number>) => pids.reduce((total, pid) => total + cpuSeconds(pid), 0)
  const before = {
    servers: sum(options.serverPids),
    pg: sum(pg),
    self: process.cpuUsage(),
    machine: machineBusySeconds(),
    wall: performance.now()
  }
  const each = Math.max(1, Math.round(options.connections / targets.length))
  const results = await Promise.all(
    targets.map((target) => hit(target, path, each, options.seconds, tally && ((ms) => tally.latencies.push(ms))))
  )
  if (tally === undefined) return
  const self = process.cpuUsage(before.self)
  tally.wallSeconds += (performance.now() - before.wall) / 1000
  tally.seconds += Math.max(...results.map((result) => result.duration))
  tally.ok += results.reduce((total, result) => total + result["2xx"], 0)
  tally.non2xx += results.reduce((total, result) => total + result.non2xx, 0)
  tally.errors += results.reduce((total, result) => total + result.errors + result.timeouts, 0)
  tally.serverCpu += sum(options.serverPids) - before.servers
  tally.postgresCpu += sum(pg) - before.pg
  tally.generatorCpu += (self.user + self.system) / 1e6
  tally.machineCpu += machineBusySeconds() - before.machine
}

/** Registers the owner of a fresh node; answers its session cookie. */
export const ownerCookie = async (url: string, accessCode: string) => {
  const answer = await fetch(`${url}/api/auth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(person(accessCode))
  })
  const cookie = answer.headers.getSetCookie().find((line) => line.startsWith("svc_session="))
  if (answer.status !== 200 || cookie === undefined)
    throw new Error(`registration answered ${answer.status}: ${await answer.text()}`)
  return cookie.split(";")[0]!
}

/** A tally as figures: per second, per request, and CPU as a share of one core over the load's wall time. */
export const figuresOf = (tally: Tally) => {
  const ordered = Float64Array.from(tally.latencies).sort()
  const at = (p: number) =>
    ordered.length === 0
      ? Number.NaN
      : ordered[Math.min(ordered.length - 1, Math.ceil((p / 100) * ordered.length) - 1)]!
  const perRequest = (cpu: number) => (tally.ok === 0 ? Number.NaN : (cpu * 1e6) / tally.ok)
  const share = (cpu: number) => (cpu / tally.wallSeconds) * 100
  return {
    requestsPerSecond: tally.ok / tally.seconds,
    p50Ms: at(50),
    p99Ms: at(99),
    serverCpuMicros: perRequest(tally.serverCpu),
    postgresCpuMicros: perRequest(tally.postgresCpu),
    serverCpuPercent: share(tally.serverCpu),
    postgresCpuPercent: share(tally.postgresCpu),
    generatorCpuPercent: share(tally.generatorCpu),
    otherCpuPercent: share(Math.max(0, tally.machineCpu - tally.serverCpu - tally.postgresCpu - tally.generatorCpu)),
    failures: tally.non2xx + tally.errors
  }
}
