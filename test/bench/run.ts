/**
 * `npm run bench`: the node's figures, each beside its anchors measured in the same run.
 *
 * 1. Authenticated `GET /api/auth/me` under 50 connections (autocannon in this process) against
 *    the real node (host/main.ts), a minimal Fastify app and bare node:http, each in its own
 *    child process, all three reading the node's own node.db and answering the same bytes.
 * 2. Process start to the first 200 on /api/health (median of 5, a fresh data dir each), node
 *    and Fastify anchor.
 * 3. Idle resident memory (VmRSS) after start, registration and a few idle seconds.
 *
 * It prints figures and ratios, and never fails on a number: it exits non-zero only when it
 * could not measure (a server that does not start, an answer that differs between servers).
 * The node runs with RATE_LIMIT_PER_MINUTE=100000000 so the global limit of 300/min per address
 * does not turn the load into 429s; everything else is the node's default configuration.
 *
 * Knobs (environment): BENCH_SECONDS (10), BENCH_WARMUP_SECONDS (2), BENCH_CONNECTIONS (50),
 * BENCH_START_RUNS (5), BENCH_IDLE_SECONDS (3).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { request as httpRequest } from "node:http"
import { createRequire } from "node:module"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

const repoRoot = fileURLToPath(new URL("../..", import.meta.url))
const nodeBin = join(repoRoot, "node_modules", ".bin", "node")
const nodeMain = join(repoRoot, "host", "main.ts")
const fastifyAnchor = fileURLToPath(new URL("anchors/fastify-me.ts", import.meta.url))
const rawAnchor = fileURLToPath(new URL("anchors/raw-me.ts", import.meta.url))

const numberFrom = (name: string, fallback: number) => {
  const value = Number(process.env[name])
  return Number.isFinite(value) && value > 0 ? value : fallback
}
const SECONDS = numberFrom("BENCH_SECONDS", 10)
const WARMUP_SECONDS = numberFrom("BENCH_WARMUP_SECONDS", 2)
const CONNECTIONS = numberFrom("BENCH_CONNECTIONS", 50)
const START_RUNS = numberFrom("BENCH_START_RUNS", 5)
const IDLE_SECONDS = numberFrom("BENCH_IDLE_SECONDS", 3)
const RATE_LIMIT = "100000000"

// ---------------------------------------------------------------------------------------------
// autocannon has no type declarations; this is the part of its programmatic API used here.

interface AutocannonResult {
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
const autocannon = createRequire(import.meta.url)("autocannon") as Autocannon

// ---------------------------------------------------------------------------------------------
// Processes

const children = new Set<ChildProcess>()
const tempDirs = new Set<string>()

const cleanUp = () => {
  for (const child of children) if (child.exitCode === null && child.pid !== undefined) child.kill("SIGKILL")
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true })
}
process.on("exit", cleanUp)
process.on("SIGINT", () => process.exit(130))

const tempDir = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  tempDirs.add(dir)
  return dir
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      server.close(() => resolve(port))
    })
  })

/** The node's environment: the defaults, on a given data dir and port, no inherited secrets. */
const nodeEnv = (dataDir: string, port: number): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { ...process.env }
  for (const name of ["SESSION_SECRET", "OWNER_ACCESS_CODE", "PUBLIC_URL", "SMTP_URL", "LLM_API_KEY", "LLM_BASE_URL", "TRUST_PROXY"]) {
    delete env[name]
  }
  return {
    ...env,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: "127.0.0.1",
    RATE_LIMIT_PER_MINUTE: RATE_LIMIT,
    PLUGIN_DIR: join(dataDir, "plugins")
  }
}

interface Server {
  readonly name: string
  readonly child: ChildProcess
  readonly pid: number
  readonly url: string
  readonly output: () => string
}

const spawnServer = (name: string, args: ReadonlyArray<string>, port: number, env: NodeJS.ProcessEnv = process.env): Server => {
  const child = spawn(nodeBin, args, { cwd: repoRoot, env, stdio: ["ignore", "pipe", "pipe"] })
  children.add(child)
  child.on("exit", () => children.delete(child))
  let output = ""
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()))
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()))
  if (child.pid === undefined) throw new Error(`${name} did not spawn`)
  return { name, child, pid: child.pid, url: `http://127.0.0.1:${port}`, output: () => output }
}

const stop = (server: Server) =>
  new Promise<void>((resolve) => {
    if (server.child.exitCode !== null || server.child.signalCode !== null) return resolve()
    server.child.once("exit", () => resolve())
    server.child.kill("SIGKILL")
  })

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

// ---------------------------------------------------------------------------------------------
// HTTP without fetch: undici loads lazily and would add its own start-up to the first poll.

interface Answer {
  readonly status: number
  readonly headers: import("node:http").IncomingHttpHeaders
  readonly body: string
}

const call = (url: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}) =>
  new Promise<Answer>((resolve, reject) => {
    const req = httpRequest(url, { method: options.method ?? "GET", headers: options.headers ?? {}, agent: false }, (res) => {
      let body = ""
      res.setEncoding("utf8")
      res.on("data", (chunk: string) => (body += chunk))
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
    })
    req.on("error", reject)
    req.end(options.body)
  })

/** Polls GET /api/health until a 200; answers the milliseconds since `since`. */
const firstHealthy = async (server: Server, since: number, timeoutMs = 30_000) => {
  while (performance.now() - since < timeoutMs) {
    if (server.child.exitCode !== null) throw new Error(`${server.name} exited during start:\n${server.output()}`)
    try {
      const answer = await call(`${server.url}/api/health`)
      if (answer.status === 200) return performance.now() - since
    } catch {
      // not listening yet
    }
    await sleep(5)
  }
  throw new Error(`${server.name} gave no 200 on /api/health within ${timeoutMs} ms:\n${server.output()}`)
}

const waitForLine = async (server: Server, pattern: RegExp, timeoutMs = 30_000) => {
  const started = performance.now()
  while (performance.now() - started < timeoutMs) {
    const match = pattern.exec(server.output())
    if (match !== null) return match
    if (server.child.exitCode !== null) throw new Error(`${server.name} exited:\n${server.output()}`)
    await sleep(10)
  }
  throw new Error(`${server.name} printed nothing matching ${pattern} within ${timeoutMs} ms:\n${server.output()}`)
}

// ---------------------------------------------------------------------------------------------
// /proc

const clockTicks = Number(spawnSync("getconf", ["CLK_TCK"]).stdout?.toString().trim()) || 100

const rssMb = (pid: number) => {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))
  return match === null ? Number.NaN : Number(match[1]) / 1024
}

/** CPU seconds (user + system) a process has used so far. */
const cpuSeconds = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
  return (Number(fields[11]) + Number(fields[12])) / clockTicks
}

// ---------------------------------------------------------------------------------------------
// Measurements

const median = (values: ReadonlyArray<number>) => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

const percentile = (sorted: Float64Array, p: number) =>
  sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]

interface LoadFigures {
  readonly requestsPerSecond: number
  readonly p50Ms: number
  readonly p99Ms: number
  readonly serverCpuMicrosPerRequest: number
  readonly serverCpuPercent: number
  readonly loadGeneratorCpuPercent: number
  readonly non2xx: number
  readonly errors: number
}

const runAutocannon = (url: string, cookie: string, seconds: number, onLatency?: (ms: number) => void) =>
  new Promise<AutocannonResult>((resolve, reject) => {
    const instance = autocannon(
      { url, connections: CONNECTIONS, duration: seconds, headers: { cookie } },
      (error, result) => (error === null ? resolve(result) : reject(error))
    )
    if (onLatency !== undefined) {
      instance.on("response", (_client, status, _bytes, ms) => {
        if (status === 200) onLatency(ms)
      })
    }
  })

/** Latency comes from autocannon's per-response times (sub-millisecond), not its 1 ms histogram. */
const measureLoad = async (server: Server, cookie: string): Promise<LoadFigures> => {
  const url = `${server.url}/api/auth/me`
  await runAutocannon(url, cookie, WARMUP_SECONDS)
  const latencies: number[] = []
  const serverCpuBefore = cpuSeconds(server.pid)
  const selfCpuBefore = process.cpuUsage()
  const wallBefore = performance.now()
  const result = await runAutocannon(url, cookie, SECONDS, (ms) => latencies.push(ms))
  const wallSeconds = (performance.now() - wallBefore) / 1000
  const serverCpu = cpuSeconds(server.pid) - serverCpuBefore
  const selfCpu = process.cpuUsage(selfCpuBefore)
  const sorted = Float64Array.from(latencies).sort()
  const ok = result["2xx"]
  return {
    requestsPerSecond: ok / result.duration,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    serverCpuMicrosPerRequest: ok === 0 ? Number.NaN : (serverCpu * 1e6) / ok,
    serverCpuPercent: (serverCpu / wallSeconds) * 100,
    loadGeneratorCpuPercent: ((selfCpu.user + selfCpu.system) / 1e6 / wallSeconds) * 100,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts
  }
}

/** Spawns the node on a fresh data dir; answers it once it printed its access code. */
const startNode = async () => {
  const dataDir = tempDir("bench-node-")
  const port = await freePort()
  const server = spawnServer("node", [nodeMain], port, nodeEnv(dataDir, port))
  const match = await waitForLine(server, /Owner access code: (\S+)/)
  return { server, dataDir, accessCode: match[1] }
}

const register = async (node: Server, accessCode: string) => {
  const answer = await call(`${node.url}/api/auth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      email: "owner@example.org",
      password: "correct horse battery",
      handle: "owner",
      displayName: "The Owner",
      accessCode
    })
  })
  const setCookie = answer.headers["set-cookie"]?.find((line) => line.startsWith("svc_session="))
  if (answer.status !== 200 || setCookie === undefined) {
    throw new Error(`registration answered ${answer.status}: ${answer.body}`)
  }
  return setCookie.split(";")[0]
}

/** Start to first healthy answer, `runs` times, alternating node and anchor so drift hits both. */
const measureStarts = async (anchorDb: string) => {
  const node: number[] = []
  const fastify: number[] = []
  for (let i = 0; i < START_RUNS; i++) {
    {
      const dataDir = tempDir("bench-start-")
      const port = await freePort()
      const since = performance.now()
      const server = spawnServer("node", [nodeMain], port, nodeEnv(dataDir, port))
      node.push(await firstHealthy(server, since))
      await stop(server)
      rmSync(dataDir, { recursive: true, force: true })
      tempDirs.delete(dataDir)
    }
    {
      const port = await freePort()
      const since = performance.now()
      const server = spawnServer("fastify", [fastifyAnchor, "--db", anchorDb, "--port", String(port)], port)
      fastify.push(await firstHealthy(server, since))
      await stop(server)
    }
  }
  return { node, fastify }
}

// ---------------------------------------------------------------------------------------------
// The run

const log = (line: string) => process.stderr.write(`${line}\n`)

log(`bench: ${CONNECTIONS} connections, ${WARMUP_SECONDS} s warm-up + ${SECONDS} s per server; ${START_RUNS} starts each`)
log(`bench: node started with RATE_LIMIT_PER_MINUTE=${RATE_LIMIT} (the default 300/min would answer 429s)`)

// The node under load and the database every server reads.
const main = await startNode()
const cookie = await register(main.server, main.accessCode)
const dbPath = join(main.dataDir, "node.db")

const [fastifyPort, rawPort] = [await freePort(), await freePort()]
const fastify = spawnServer("fastify", [fastifyAnchor, "--db", dbPath, "--port", String(fastifyPort)], fastifyPort)
const raw = spawnServer("raw", [rawAnchor, "--db", dbPath, "--port", String(rawPort)], rawPort)
await Promise.all([waitForLine(fastify, /listening at/), waitForLine(raw, /listening at/)])

// Same request, same answer: a benchmark of servers that do different work would say nothing.
const answers = await Promise.all(
  [main.server, fastify, raw].map((server) => call(`${server.url}/api/auth/me`, { headers: { cookie } }))
)
for (const [i, answer] of answers.entries()) {
  if (answer.status !== 200 || answer.body !== answers[0].body) {
    throw new Error(`${[main.server, fastify, raw][i].name} answered ${answer.status} ${answer.body}, the node ${answers[0].body}`)
  }
}
log(`bench: all three answer GET /api/auth/me with the same ${answers[0].body.length} bytes`)

log(`bench: idle ${IDLE_SECONDS} s, then reading VmRSS`)
await sleep(IDLE_SECONDS * 1000)
const idleRss = { node: rssMb(main.server.pid), fastify: rssMb(fastify.pid), raw: rssMb(raw.pid) }

const load: Record<"node" | "fastify" | "raw", LoadFigures> = {} as Record<"node" | "fastify" | "raw", LoadFigures>
for (const [key, server] of [["node", main.server], ["fastify", fastify], ["raw", raw]] as const) {
  log(`bench: loading ${server.name} at ${server.url}/api/auth/me`)
  load[key] = await measureLoad(server, cookie)
}
const loadedRss = { node: rssMb(main.server.pid), fastify: rssMb(fastify.pid), raw: rssMb(raw.pid) }

log(`bench: timing ${START_RUNS} starts of the node and of the Fastify anchor`)
const starts = await measureStarts(dbPath)

await Promise.all([stop(main.server), stop(fastify), stop(raw)])

// ---------------------------------------------------------------------------------------------
// Report

const fixed = (value: number, digits = 0) => (Number.isFinite(value) ? value.toFixed(digits) : "n/a")
const ratio = (a: number, b: number) => (b > 0 && Number.isFinite(a) ? a / b : Number.NaN)

const rows: ReadonlyArray<readonly [string, number, number, number, number]> = [
  ["GET /api/auth/me throughput (req/s)", load.node.requestsPerSecond, load.fastify.requestsPerSecond, load.raw.requestsPerSecond, 0],
  ["GET /api/auth/me p50 latency (ms)", load.node.p50Ms, load.fastify.p50Ms, load.raw.p50Ms, 2],
  ["GET /api/auth/me p99 latency (ms)", load.node.p99Ms, load.fastify.p99Ms, load.raw.p99Ms, 2],
  ["server CPU per request (µs)", load.node.serverCpuMicrosPerRequest, load.fastify.serverCpuMicrosPerRequest, load.raw.serverCpuMicrosPerRequest, 1],
  ["server CPU during load (% of a core)", load.node.serverCpuPercent, load.fastify.serverCpuPercent, load.raw.serverCpuPercent, 0],
  ["load generator CPU (% of a core)", load.node.loadGeneratorCpuPercent, load.fastify.loadGeneratorCpuPercent, load.raw.loadGeneratorCpuPercent, 0],
  ["start → first 200 /api/health (ms, median)", median(starts.node), median(starts.fastify), Number.NaN, 0],
  ["idle RSS (MB)", idleRss.node, idleRss.fastify, idleRss.raw, 1],
  ["RSS after the load (MB)", loadedRss.node, loadedRss.fastify, loadedRss.raw, 1]
]

const header = ["figure", "node", "fastify", "raw http", "node/fastify", "node/raw"]
const table = rows.map(([label, node, fast, bare, digits]) => [
  label,
  fixed(node, digits),
  fixed(fast, digits),
  fixed(bare, digits),
  fixed(ratio(node, fast), 2),
  fixed(ratio(node, bare), 2)
])
const widths = header.map((title, i) => Math.max(title.length, ...table.map((row) => row[i].length)))
const line = (cells: ReadonlyArray<string>) =>
  cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join("  ")

const throughputRatio = ratio(load.node.requestsPerSecond, load.fastify.requestsPerSecond)
const startMedian = median(starts.node)
const verdict = (met: boolean) => (met ? "meets it" : "misses it")

const out = [
  "",
  `GET /api/auth/me: ${CONNECTIONS} connections, ${SECONDS} s each after ${WARMUP_SECONDS} s warm-up; one process per server, autocannon in the bench process`,
  `node started with RATE_LIMIT_PER_MINUTE=${RATE_LIMIT}; all three read the node's node.db and answer the same bytes`,
  "",
  line(header),
  line(widths.map((w) => "-".repeat(w))),
  ...table.map(line),
  "",
  `throughput  aim: >= 0.75 of Fastify   node is at ${fixed(throughputRatio, 2)} of Fastify: ${verdict(throughputRatio >= 0.75)}`,
  `start       aim: < 1500 ms            node median ${fixed(startMedian)} ms (runs: ${starts.node.map((v) => fixed(v)).join(", ")}): ${verdict(startMedian < 1500)}`,
  `idle RSS    aim: < 150 MB             node ${fixed(idleRss.node, 1)} MB: ${verdict(idleRss.node < 150)}`,
  `non-2xx / errors under load: node ${load.node.non2xx}/${load.node.errors}, fastify ${load.fastify.non2xx}/${load.fastify.errors}, raw ${load.raw.non2xx}/${load.raw.errors}`,
  ""
]
console.log(out.join("\n"))

const figures = {
  settings: { connections: CONNECTIONS, seconds: SECONDS, warmupSeconds: WARMUP_SECONDS, startRuns: START_RUNS, idleSeconds: IDLE_SECONDS, rateLimitPerMinute: Number(RATE_LIMIT) },
  machine: { cpus: (await import("node:os")).availableParallelism(), node: process.version },
  load,
  ratios: {
    throughputNodeOverFastify: throughputRatio,
    throughputNodeOverRaw: ratio(load.node.requestsPerSecond, load.raw.requestsPerSecond),
    p99NodeOverFastify: ratio(load.node.p99Ms, load.fastify.p99Ms),
    p99NodeOverRaw: ratio(load.node.p99Ms, load.raw.p99Ms)
  },
  startMs: starts,
  startMedianMs: { node: startMedian, fastify: median(starts.fastify) },
  idleRssMb: idleRss,
  loadedRssMb: loadedRss,
  aims: { throughputOfFastify: 0.75, startMs: 1500, idleRssMb: 150 }
}
console.log(`figures as JSON: ${JSON.stringify(figures)}`)
