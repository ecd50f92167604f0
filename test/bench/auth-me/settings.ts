/**
 * The auth-me section's knobs and the files it runs.
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
import { QUIET_SECONDS } from "../../../host/settle-heap.ts"
import { join, resolve } from "node:path"
import { fileURLToPath } from "node:url"

export const repoRoot = fileURLToPath(new URL("../../..", import.meta.url))
export const nodeDir = resolve(process.env.BENCH_NODE_DIR ?? repoRoot)
export const nodeMain = join(nodeDir, "host", "main.ts")
export const nodeFlags = (process.env.BENCH_NODE_FLAGS ?? "").split(/\s+/).filter((flag) => flag !== "")
export const fastifyAnchor = fileURLToPath(new URL("../anchors/fastify-me.ts", import.meta.url))
export const rawAnchor = fileURLToPath(new URL("../anchors/raw-me.ts", import.meta.url))
export const effectAnchor = fileURLToPath(new URL("../anchors/effect-me.ts", import.meta.url))

const numberFrom = (name: string, fallback: number) => {
  const value = Number(process.env[name])
  return Number.isFinite(value) && value > 0 ? value : fallback
}
export const SECONDS = numberFrom("BENCH_SECONDS", 10)
export const ROUNDS = Math.round(numberFrom("BENCH_ROUNDS", 5))
export const WARMUP_SECONDS = numberFrom("BENCH_WARMUP_SECONDS", 2)
export const CONNECTIONS = Math.round(numberFrom("BENCH_CONNECTIONS", 50))
export const START_RUNS = Math.round(numberFrom("BENCH_START_RUNS", 5))
export const IDLE_SECONDS = numberFrom("BENCH_IDLE_SECONDS", 3)
/**
 * When RSS after the load is read for the verdict: once the node counts itself at rest and has given back what the
 * load grew (host/settle-heap.ts), three times its quiet time, since V8's own memory reducer may collect in the first
 * seconds after the load and a second spent so is not a quiet one.
 */
export const AT_REST_SECONDS = QUIET_SECONDS * 3
export const RATE_LIMIT = "100000000"

/** Progress goes to stderr, so stdout holds the report alone. */
export const log = (line: string) => process.stderr.write(`bench: ${line}\n`)
