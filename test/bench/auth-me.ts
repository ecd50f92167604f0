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
 * The knobs (environment) are listed in auth-me/settings.ts.
 */
import { join } from "node:path"
import { interleavedLoad } from "./auth-me/load.ts"
import { report } from "./auth-me/report.ts"
import { call, freePort, register, rssOfAll, spawnAnchor, startNode, type Target, targets } from "./auth-me/servers.ts"
import { type Server, sleep, stop, waitForLine } from "./spawned-server.ts"
import {
  CONNECTIONS,
  effectAnchor,
  fastifyAnchor,
  IDLE_SECONDS,
  log,
  nodeFlags,
  nodeMain,
  RATE_LIMIT,
  ROUNDS,
  rawAnchor,
  SECONDS,
  START_RUNS,
  WARMUP_SECONDS
} from "./auth-me/settings.ts"
import { measureStarts } from "./auth-me/starts.ts"
import { AT_REST_SECONDS } from "./auth-me/settings.ts"

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
const idleRss = rssOfAll(servers)

const load = await interleavedLoad(servers, cookie)
const endRss = rssOfAll(servers)
// What each server holds once the load has passed: the same quiet time as before the idle figure, and then once the
// node counts itself at rest (host/settle-heap.ts: it gives back what the load grew after QUIET_SECONDS of quiet).
log(`idle ${IDLE_SECONDS} s after the load, then reading VmRSS again`)
await sleep(IDLE_SECONDS * 1000)
const soonRss = rssOfAll(servers)
log(`idle until ${AT_REST_SECONDS} s after the load, then reading VmRSS a last time`)
await sleep((AT_REST_SECONDS - IDLE_SECONDS) * 1000)
const loadedRss = rssOfAll(servers)

log(`timing ${START_RUNS} starts of the node and of the Fastify anchor`)
const starts = await measureStarts(dbPath)

await Promise.all(targets.map((target) => stop(servers[target])))

report({ load, starts, idleRss, endRss, soonRss, loadedRss })
