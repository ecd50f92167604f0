/**
 * `npm run bench`: the node's figures, each beside its anchors measured in the same run.
 *
 * 1. Authenticated `GET /api/auth/me` under 50 connections (autocannon, in this process)
 *    against the real node (host/main.ts), a minimal Fastify app, bare node:http and the
 *    smallest Effect HttpApi app doing the same work (which splits the node's cost into the
 *    stack's and the node's own), each in its own child process, all reading the node's own
 *    node.db and answering the same bytes. The load runs in interleaved rounds (node, effect,
 *    fastify, raw, node, ...) so a neighbour that takes CPU for a while weighs on all of them.
 * 2. Process start to the first 200 on /api/health (median of 5, a fresh data dir each), node
 *    and Fastify anchor, with the CPU the process used by then.
 * 3. Idle resident memory (VmRSS) after start, registration and a few idle seconds.
 *
 * It prints figures and ratios and never fails on a number: it exits non-zero only when it
 * could not measure (a server that does not start, servers that answer different bytes).
 * The node runs with RATE_LIMIT_PER_MINUTE=100000000 so its global limit (300/min per address)
 * does not turn the load into 429s; everything else is the node's default configuration.
 *
 * Knobs (environment):
 *   BENCH_SECONDS (10)          measured seconds of load per server, split over the rounds
 *   BENCH_ROUNDS (5)            interleaved rounds
 *   BENCH_WARMUP_SECONDS (2)    load per server before measuring
 *   BENCH_CONNECTIONS (50)
 *   BENCH_START_RUNS (5)        starts timed per server
 *   BENCH_IDLE_SECONDS (3)      idle time before VmRSS is read
 *   BENCH_NODE_DIR (this repo)  a checkout whose host/main.ts is the node under test: try a change
 *                               in a scratch copy and compare it with the same anchors
 *   BENCH_NODE_FLAGS ("")       extra flags for the node's `node`, e.g. "--max-semi-space-size=16"
 */
import { spawn, type ChildProcess } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { request as httpRequest, type IncomingHttpHeaders } from "node:http"
import { createServer } from "node:net"
import { availableParallelism, tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { autocannon, type AutocannonResult, cpuSeconds, machineBusySeconds } from "./scale-out/load.ts"

const repoRoot = fileURLToPath(new URL("../..", import.meta.url))
const nodeBin = join(repoRoot, "node_modules", ".bin", "node")
const nodeDir = resolve(process.env.BENCH_NODE_DIR ?? repoRoot)
const nodeMain = join(nodeDir, "host", "main.ts")
const nodeFlags = (process.env.BENCH_NODE_FLAGS ?? "").split(/\s+/).filter((flag) => flag !== "")
const fastifyAnchor = fileURLToPath(new URL("anchors/fastify-me.ts", import.meta.url))
const rawAnchor = fileURLToPath(new URL("anchors/raw-me.ts", import.meta.url))
const effectAnchor = fileURLToPath(new URL("anchors/effect-me.ts", import.meta.url))

const numberFrom = (name: string, fallback: number) => {
  const value = Number(process.env[name])
  return Number.isFinite(value) && value > 0 ? value : fallback
}
const SECONDS = numberFrom("BENCH_SECONDS", 10)
const ROUNDS = Math.round(numberFrom("BENCH_ROUNDS", 5))
const WARMUP_SECONDS = numberFrom("BENCH_WARMUP_SECONDS", 2)
const CONNECTIONS = Math.round(numberFrom("BENCH_CONNECTIONS", 50))
const START_RUNS = Math.round(numberFrom("BENCH_START_RUNS", 5))
const IDLE_SECONDS = numberFrom("BENCH_IDLE_SECONDS", 3)
const RATE_LIMIT = "100000000"

// ---------------------------------------------------------------------------------------------
// Processes

const children = new Set<ChildProcess>()
const tempDirs = new Set<string>()

process.on("exit", () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL")
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true })
})
process.on("SIGINT", () => process.exit(130))

const tempDir = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  tempDirs.add(dir)
  return dir
}

const removeDir = (dir: string) => {
  rmSync(dir, { recursive: true, force: true })
  tempDirs.delete(dir)
}

const freePort = () =>
  new Promise<number>((resolvePort, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      server.close(() => resolvePort(port))
    })
  })

/** The node's environment: its defaults on a given data dir and port, no inherited secrets. */
const nodeEnv = (dataDir: string, port: number): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { ...process.env }
  for (const name of [
    "SESSION_SECRET",
    "OWNER_ACCESS_CODE",
    "PUBLIC_URL",
    "SMTP_URL",
    "LLM_API_KEY",
    "LLM_BASE_URL",
    "TRUST_PROXY"
  ]) {
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

const spawnServer = (
  name: string,
  args: ReadonlyArray<string>,
  port: number,
  options: { cwd: string; env?: NodeJS.ProcessEnv }
): Server => {
  const child = spawn(nodeBin, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ["ignore", "pipe", "pipe"]
  })
  children.add(child)
  child.on("exit", () => children.delete(child))
  let output = ""
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()))
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()))
  if (child.pid === undefined) throw new Error(`${name} did not spawn`)
  return { name, child, pid: child.pid, url: `http://127.0.0.1:${port}`, output: () => output }
}

const spawnNode = (dataDir: string, port: number) =>
  spawnServer("node", [...nodeFlags, nodeMain], port, { cwd: nodeDir, env: nodeEnv(dataDir, port) })

const spawnAnchor = (name: string, file: string, db: string, port: number) =>
  spawnServer(name, [file, "--db", db, "--port", String(port)], port, { cwd: repoRoot })

const stop = (server: Server) =>
  new Promise<void>((resolveStop) => {
    if (server.child.exitCode !== null || server.child.signalCode !== null) return resolveStop()
    server.child.once("exit", () => resolveStop())
    server.child.kill("SIGKILL")
  })

const sleep = (ms: number) => new Promise((resolveSleep) => setTimeout(resolveSleep, ms))

// ---------------------------------------------------------------------------------------------
// HTTP without fetch: undici loads lazily and would add its own start-up to the first poll.

interface Answer {
  readonly status: number
  readonly headers: IncomingHttpHeaders
  readonly body: string
}

const call = (url: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}) =>
  new Promise<Answer>((resolveCall, reject) => {
    const req = httpRequest(
      url,
      { method: options.method ?? "GET", headers: options.headers ?? {}, agent: false },
      (res) => {
        let body = ""
        res.setEncoding("utf8")
        res.on("data", (chunk: string) => (body += chunk))
        res.on("end", () => resolveCall({ status: res.statusCode ?? 0, headers: res.headers, body }))
      }
    )
    req.on("error", reject)
    req.end(options.body)
  })

/** Polls GET /api/health every 5 ms until a 200: the wall time since `since` and the CPU the server used by then. */
const firstHealthy = async (server: Server, since: number, timeoutMs = 60_000) => {
  while (performance.now() - since < timeoutMs) {
    if (server.child.exitCode !== null) throw new Error(`${server.name} exited during start:\n${server.output()}`)
    try {
      const answer = await call(`${server.url}/api/health`)
      if (answer.status === 200) return { wallMs: performance.now() - since, cpuMs: cpuSeconds(server.pid) * 1000 }
    } catch {
      // not listening yet
    }
    await sleep(5)
  }
  throw new Error(`${server.name} gave no 200 on /api/health within ${timeoutMs} ms:\n${server.output()}`)
}

const waitForLine = async (server: Server, pattern: RegExp, timeoutMs = 60_000) => {
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

const rssMb = (pid: number) => {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))
  return match === null ? Number.NaN : Number(match[1]) / 1024
}

// ---------------------------------------------------------------------------------------------
// Measurements

const median = (values: ReadonlyArray<number>) => {
  if (values.length === 0) return Number.NaN
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

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

type Target = "node" | "effect" | "fastify" | "raw"

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

interface LoadFigures {
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

/** Spawns the node on a fresh data dir; answers it once it printed its access code. */
const startNode = async () => {
  const dataDir = tempDir("bench-node-")
  const port = await freePort()
  const spawned = spawnNode(dataDir, port)
  const listening = await waitForLine(spawned, /listening at (http:\/\/\S+)/)
  const match = await waitForLine(spawned, /Owner access code: (\S+)/)
  // The address the node says it listens at, in case it is not the one it was given.
  const server: Server = { ...spawned, url: listening[1].replace(/\/+$/, "") }
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

interface StartFigures {
  readonly wallMs: Array<number>
  readonly cpuMs: Array<number>
}

/** Start to first healthy answer, alternating node and anchor so a busy moment hits both. */
const measureStarts = async (anchorDb: string) => {
  const node: StartFigures = { wallMs: [], cpuMs: [] }
  const fastify: StartFigures = { wallMs: [], cpuMs: [] }
  const record = (into: StartFigures, figures: { wallMs: number; cpuMs: number }) => {
    into.wallMs.push(figures.wallMs)
    into.cpuMs.push(figures.cpuMs)
  }
  for (let i = 0; i < START_RUNS; i++) {
    const dataDir = tempDir("bench-start-")
    let port = await freePort()
    let since = performance.now()
    const started = spawnNode(dataDir, port)
    record(node, await firstHealthy(started, since))
    await stop(started)
    removeDir(dataDir)

    port = await freePort()
    since = performance.now()
    const anchor = spawnAnchor("fastify", fastifyAnchor, anchorDb, port)
    record(fastify, await firstHealthy(anchor, since))
    await stop(anchor)
  }
  return { node, fastify }
}

// ---------------------------------------------------------------------------------------------
// The run

const log = (line: string) => process.stderr.write(`bench: ${line}\n`)

log(
  `${CONNECTIONS} connections; ${WARMUP_SECONDS} s warm-up, then ${SECONDS} s per server in ${ROUNDS} interleaved rounds; ${START_RUNS} starts each`
)
log(
  `the node: ${nodeMain}${nodeFlags.length > 0 ? ` with ${nodeFlags.join(" ")}` : ""}, RATE_LIMIT_PER_MINUTE=${RATE_LIMIT} (its default 300/min would answer 429s)`
)

// The node under load and the database every server reads.
const main = await startNode()
const cookie = await register(main.server, main.accessCode).catch((error: unknown) => {
  throw new Error(`registering the owner failed (${String(error)}); the node said:\n${main.server.output()}`)
})
const dbPath = join(main.dataDir, "node.db")

const effect = spawnAnchor("effect", effectAnchor, dbPath, await freePort())
const fastify = spawnAnchor("fastify", fastifyAnchor, dbPath, await freePort())
const raw = spawnAnchor("raw", rawAnchor, dbPath, await freePort())
await Promise.all([effect, fastify, raw].map((anchor) => waitForLine(anchor, /listening at/)))
const servers: Record<Target, Server> = { node: main.server, effect, fastify, raw }
const targets: ReadonlyArray<Target> = ["node", "effect", "fastify", "raw"]

// Same request, same answer: a benchmark of servers that do different work would say nothing.
const answers = await Promise.all(
  targets.map((target) => call(`${servers[target].url}/api/auth/me`, { headers: { cookie } }))
)
for (const [i, answer] of answers.entries()) {
  if (answer.status !== 200 || answer.body !== answers[0].body) {
    throw new Error(`${targets[i]} answered ${answer.status} ${answer.body}; the node answered ${answers[0].body}`)
  }
}
log(`all four answer GET /api/auth/me with the same ${answers[0].body.length} bytes`)

log(`idle ${IDLE_SECONDS} s, then reading VmRSS`)
await sleep(IDLE_SECONDS * 1000)
const rssOfAll = () => ({
  node: rssMb(main.server.pid),
  effect: rssMb(effect.pid),
  fastify: rssMb(fastify.pid),
  raw: rssMb(raw.pid)
})
const idleRss = rssOfAll()

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
const tallies: Record<Target, LoadTally> = {
  node: emptyTally(),
  effect: emptyTally(),
  fastify: emptyTally(),
  raw: emptyTally()
}
log("warming up each server")
for (const target of targets) await runAutocannon(`${servers[target].url}/api/auth/me`, cookie, WARMUP_SECONDS)
const roundSeconds = SECONDS / ROUNDS
const everyPid = targets.map((target) => servers[target].pid)
for (let round = 1; round <= ROUNDS; round++) {
  log(`round ${round}/${ROUNDS}: ${roundSeconds} s each on ${targets.join(", ")}`)
  for (const target of targets) await loadRound(servers[target], cookie, roundSeconds, tallies[target], everyPid)
}
const load: Record<Target, LoadFigures> = {
  node: figuresOf(tallies.node),
  effect: figuresOf(tallies.effect),
  fastify: figuresOf(tallies.fastify),
  raw: figuresOf(tallies.raw)
}
const loadedRss = rssOfAll()

log(`timing ${START_RUNS} starts of the node and of the Fastify anchor`)
const starts = await measureStarts(dbPath)

await Promise.all(targets.map((target) => stop(servers[target])))

// ---------------------------------------------------------------------------------------------
// Report

const fixed = (value: number, digits = 0) => (Number.isFinite(value) ? value.toFixed(digits) : "n/a")
const ratio = (a: number, b: number) => (b > 0 && Number.isFinite(a) ? a / b : Number.NaN)

type Row = readonly [label: string, values: Record<Target, number>, digits: number]
const perTarget = (pick: (figures: LoadFigures) => number): Record<Target, number> => ({
  node: pick(load.node),
  effect: pick(load.effect),
  fastify: pick(load.fastify),
  raw: pick(load.raw)
})
const startsOnly = (node: number, fast: number): Record<Target, number> => ({
  node,
  effect: Number.NaN,
  fastify: fast,
  raw: Number.NaN
})
const rows: ReadonlyArray<Row> = [
  ["GET /api/auth/me throughput (req/s)", perTarget((f) => f.requestsPerSecond), 0],
  ["GET /api/auth/me p50 latency (ms)", perTarget((f) => f.p50Ms), 2],
  ["GET /api/auth/me p99 latency (ms)", perTarget((f) => f.p99Ms), 2],
  ["server CPU per request (µs)", perTarget((f) => f.serverCpuMicrosPerRequest), 1],
  ["server CPU under load (% of one core)", perTarget((f) => f.serverCpuPercent), 0],
  ["load generator CPU (% of one core)", perTarget((f) => f.loadGeneratorCpuPercent), 0],
  ["other processes' CPU meanwhile (% of one core)", perTarget((f) => f.otherProcessesCpuPercent), 0],
  [
    "start → first 200 /api/health (ms, median)",
    startsOnly(median(starts.node.wallMs), median(starts.fastify.wallMs)),
    0
  ],
  ["CPU used by the first 200 (ms, median)", startsOnly(median(starts.node.cpuMs), median(starts.fastify.cpuMs)), 0],
  ["idle RSS (MB)", idleRss, 1],
  ["RSS after the load (MB)", loadedRss, 1]
]

const header = [
  "figure",
  "node",
  "effect-min",
  "fastify",
  "raw http",
  "node/fastify",
  "node/raw",
  "node/effect",
  "effect/fastify"
]
const table = rows.map(([label, v, digits]) => [
  label,
  fixed(v.node, digits),
  fixed(v.effect, digits),
  fixed(v.fastify, digits),
  fixed(v.raw, digits),
  fixed(ratio(v.node, v.fastify), 2),
  fixed(ratio(v.node, v.raw), 2),
  fixed(ratio(v.node, v.effect), 2),
  fixed(ratio(v.effect, v.fastify), 2)
])
const widths = header.map((title, i) => Math.max(title.length, ...table.map((row) => row[i].length)))
const line = (cells: ReadonlyArray<string>) =>
  cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join("  ")

const throughputRatio = ratio(load.node.requestsPerSecond, load.fastify.requestsPerSecond)
const startMedian = median(starts.node.wallMs)
const standing = (met: boolean) => (met ? "meets it" : "misses it")
const cores = availableParallelism()
const busiest = Math.max(...targets.map((target) => load[target].otherProcessesCpuPercent))

const out = [
  "",
  `GET /api/auth/me: ${CONNECTIONS} connections, ${SECONDS} s per server in ${ROUNDS} interleaved rounds after ${WARMUP_SECONDS} s warm-up;`,
  `one process per server, autocannon in the bench process; ${cores} cores; node ${nodeMain}${nodeFlags.length > 0 ? ` ${nodeFlags.join(" ")}` : ""}`,
  `node started with RATE_LIMIT_PER_MINUTE=${RATE_LIMIT}; every server reads the node's node.db and answers the same bytes;`,
  "effect-min: the smallest Effect HttpApi app doing the same work (platform defaults, better-sqlite3 directly)",
  "",
  line(header),
  line(widths.map((width) => "-".repeat(width))),
  ...table.map(line),
  "",
  `throughput  aim: >= 0.6 of Fastify    the node is at ${fixed(throughputRatio, 2)} of Fastify: ${standing(throughputRatio >= 0.6)}`,
  `start       aim: < 1500 ms            median ${fixed(startMedian)} ms (runs: ${starts.node.wallMs.map((ms) => fixed(ms)).join(", ")}): ${standing(startMedian < 1500)}`,
  `idle RSS    aim: < 150 MB             ${fixed(idleRss.node, 1)} MB: ${standing(idleRss.node < 150)}`,
  `non-2xx / errors under load: ${targets.map((target) => `${target} ${load[target].non2xx}/${load[target].errors}`).join(", ")}`,
  ...(busiest > 25
    ? [
        `note: other processes took up to ${fixed(busiest)}% of a core during the load; absolute figures are low, read the ratios and CPU per request`
      ]
    : []),
  ""
]
console.log(out.join("\n"))

const figures = {
  settings: {
    connections: CONNECTIONS,
    seconds: SECONDS,
    rounds: ROUNDS,
    warmupSeconds: WARMUP_SECONDS,
    startRuns: START_RUNS,
    idleSeconds: IDLE_SECONDS,
    rateLimitPerMinute: Number(RATE_LIMIT),
    nodeMain,
    nodeFlags
  },
  machine: { cores, node: process.version },
  load,
  ratios: {
    throughputNodeOverFastify: throughputRatio,
    throughputNodeOverRaw: ratio(load.node.requestsPerSecond, load.raw.requestsPerSecond),
    p99NodeOverFastify: ratio(load.node.p99Ms, load.fastify.p99Ms),
    p99NodeOverRaw: ratio(load.node.p99Ms, load.raw.p99Ms),
    cpuPerRequestNodeOverFastify: ratio(load.node.serverCpuMicrosPerRequest, load.fastify.serverCpuMicrosPerRequest),
    throughputNodeOverEffectMin: ratio(load.node.requestsPerSecond, load.effect.requestsPerSecond),
    throughputEffectMinOverFastify: ratio(load.effect.requestsPerSecond, load.fastify.requestsPerSecond)
  },
  start: starts,
  startMedianMs: { node: startMedian, fastify: median(starts.fastify.wallMs) },
  idleRssMb: idleRss,
  loadedRssMb: loadedRss,
  aims: { throughputOfFastify: 0.6, startMs: 1500, idleRssMb: 150 }
}
console.log(`figures as JSON: ${JSON.stringify(figures)}`)
