/** The auth-me section's report on stdout: the table of figures and ratios, the aims, and the figures as JSON. */
import { availableParallelism } from "node:os"
import type { LoadFigures } from "./load.ts"
import type { Target } from "./servers.ts"
import { targets } from "./servers.ts"
import {
  CONNECTIONS,
  IDLE_SECONDS,
  AT_REST_SECONDS,
  nodeFlags,
  nodeMain,
  RATE_LIMIT,
  ROUNDS,
  SECONDS,
  START_RUNS,
  WARMUP_SECONDS
} from "./settings.ts"
import type { StartFigures } from "./starts.ts"
import { meets, recordVerdict } from "../verdicts.ts"

/** Issue 27's aims ("Speed where people feel it"): the node beside a plain Fastify app, its start and its memory. */
const aims = { throughputOfFastify: 0.8, p99OfFastify: 2, startMs: 1000, idleRssMb: 120, loadedRssMb: 160 }

const median = (values: ReadonlyArray<number>) => {
  if (values.length === 0) return Number.NaN
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

const fixed = (value: number, digits = 0) => (Number.isFinite(value) ? value.toFixed(digits) : "n/a")
const ratio = (a: number, b: number) => (b > 0 && Number.isFinite(a) ? a / b : Number.NaN)
const standing = (met: boolean) => (met ? "meets it" : "misses it")

type Row = readonly [label: string, values: Record<Target, number>, digits: number]

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

export const report = (measured: {
  readonly load: Record<Target, LoadFigures>
  readonly starts: { readonly node: StartFigures; readonly fastify: StartFigures }
  readonly idleRss: Record<Target, number>
  /**
   * Read the moment the load ended, IDLE_SECONDS later, and AT_REST_SECONDS s later (the verdict's: what a server
   * keeps once the load has passed and the node counts itself at rest, host/settle-heap.ts).
   */
  readonly endRss: Record<Target, number>
  readonly soonRss: Record<Target, number>
  readonly loadedRss: Record<Target, number>
}) => {
  const { load, starts, idleRss, endRss, soonRss, loadedRss } = measured
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
    ["RSS at the load's end (MB)", endRss, 1],
    [`RSS ${IDLE_SECONDS} s after the load (MB)`, soonRss, 1],
    [`RSS ${AT_REST_SECONDS} s after the load (MB)`, loadedRss, 1]
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
  const p99Ratio = ratio(load.node.p99Ms, load.fastify.p99Ms)
  const startMedian = median(starts.node.wallMs)
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
    `throughput  aim: >= ${aims.throughputOfFastify} of Fastify    the node is at ${fixed(throughputRatio, 2)} of Fastify: ${standing(throughputRatio >= aims.throughputOfFastify)}`,
    `p99         aim: <= ${aims.p99OfFastify}× Fastify's      the node's is ${fixed(p99Ratio, 2)}×: ${standing(p99Ratio <= aims.p99OfFastify)}`,
    `start       aim: < ${aims.startMs} ms            median ${fixed(startMedian)} ms (runs: ${starts.node.wallMs.map((ms) => fixed(ms)).join(", ")}): ${standing(startMedian < aims.startMs)}`,
    `idle RSS    aim: < ${aims.idleRssMb} MB             ${fixed(idleRss.node, 1)} MB: ${standing(idleRss.node < aims.idleRssMb)}`,
    `RSS after   aim: < ${aims.loadedRssMb} MB             ${fixed(loadedRss.node, 1)} MB: ${standing(loadedRss.node < aims.loadedRssMb)}`,
    `non-2xx / errors under load: ${targets.map((target) => `${target} ${load[target].non2xx}/${load[target].errors}`).join(", ")}`,
    ...(busiest > 25
      ? [
          `note: other processes took up to ${fixed(busiest)}% of a core during the load; absolute figures are low, read the ratios and CPU per request`
        ]
      : []),
    ""
  ]
  console.log(out.join("\n"))

  const fastifyStart = median(starts.fastify.wallMs)
  recordVerdict({
    figure: "GET /api/auth/me throughput",
    measured: `${fixed(load.node.requestsPerSecond)} req/s, ${fixed(throughputRatio, 2)}× Fastify`,
    anchor: `Fastify ${fixed(load.fastify.requestsPerSecond)} req/s`,
    aim: `≥ ${aims.throughputOfFastify}× Fastify`,
    met: meets(throughputRatio, (r) => r >= aims.throughputOfFastify)
  })
  recordVerdict({
    figure: "GET /api/auth/me p99",
    measured: `${fixed(load.node.p99Ms, 2)} ms, ${fixed(p99Ratio, 2)}× Fastify's`,
    anchor: `Fastify ${fixed(load.fastify.p99Ms, 2)} ms`,
    aim: `≤ ${aims.p99OfFastify}× Fastify's`,
    met: meets(p99Ratio, (r) => r <= aims.p99OfFastify)
  })
  recordVerdict({
    figure: "process start → first 200 on /api/health",
    measured: `${fixed(startMedian)} ms median (${fixed(median(starts.node.cpuMs))} ms CPU)`,
    anchor: `Fastify ${fixed(fastifyStart)} ms`,
    aim: `< ${aims.startMs} ms`,
    met: meets(startMedian, (ms) => ms < aims.startMs)
  })
  recordVerdict({
    figure: "idle RSS after registration",
    measured: `${fixed(idleRss.node, 1)} MB`,
    anchor: `Fastify ${fixed(idleRss.fastify, 1)} MB`,
    aim: `< ${aims.idleRssMb} MB`,
    met: meets(idleRss.node, (mb) => mb < aims.idleRssMb)
  })
  recordVerdict({
    figure: "RSS after the load",
    measured: `${fixed(loadedRss.node, 1)} MB ${AT_REST_SECONDS} s after (${fixed(endRss.node, 1)} at its end, ${fixed(soonRss.node, 1)} ${IDLE_SECONDS} s after)`,
    anchor: `Fastify ${fixed(loadedRss.fastify, 1)} MB (${fixed(endRss.fastify, 1)}, ${fixed(soonRss.fastify, 1)})`,
    aim: `< ${aims.loadedRssMb} MB`,
    met: meets(loadedRss.node, (mb) => mb < aims.loadedRssMb)
  })

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
    startMedianMs: { node: startMedian, fastify: fastifyStart },
    idleRssMb: idleRss,
    endOfLoadRssMb: endRss,
    soonAfterLoadRssMb: soonRss,
    loadedRssMb: loadedRss,
    aims
  }
  console.log(`figures as JSON: ${JSON.stringify(figures)}`)
}
