/**
 * The live-channel section's two servers, each a process of its own: the node as `npm start` runs
 * it (test/support/child-node.ts) and the raw `ws` anchor (../anchors/raw-ws-broadcast.ts). Both
 * carry the loop-delay preload (./loop-delay.ts); `loopDelay()` reads and restarts its histogram,
 * `cpuSeconds()` the process's CPU time so far. With BENCH_LIVE_PROFILE=<dir>, the node writes a
 * CPU profile there when it stops, and so does the anchor.
 */
import { fileURLToPath } from "node:url"
import { startChildNode } from "../../support/child-node.ts"
import { freePort } from "../../support/free-port.ts"
import { register } from "../auth-me/servers.ts"
import { cpuSeconds } from "../scale-out/load.ts"
import { spawnServer, stop, waitForLine } from "../spawned-server.ts"

const hook = fileURLToPath(new URL("./loop-delay.ts", import.meta.url))
const anchorScript = fileURLToPath(new URL("../anchors/raw-ws-broadcast.ts", import.meta.url))

export interface LoopDelay {
  readonly meanMs: number
  readonly p50Ms: number
  readonly p99Ms: number
  readonly maxMs: number
}

export interface BenchServer {
  readonly url: string
  readonly pid: number
  readonly cpuSeconds: () => number
  /** The event-loop delay since the last call (or the start), read from the process's preload. */
  readonly loopDelay: () => Promise<LoopDelay>
  readonly close: () => Promise<void>
}

/** Signals the preload and waits for the next `loop-delay` line in the process's output. */
const loopDelayOf = (pid: number, output: () => string) => async () => {
  const seen = output().split("loop-delay ").length
  process.kill(pid, "SIGUSR2")
  for (let waited = 0; waited < 5000; waited += 10) {
    const parts = output().split("loop-delay ")
    if (parts.length > seen) return JSON.parse(parts[seen]!.split("\n")[0]!) as LoopDelay
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  throw new Error("the server printed no loop delay")
}

/** The node, with its live bounds past a thousand sockets from one address; the owner signed in. */
export const startNodeServer = async () => {
  const profileDir = process.env.BENCH_LIVE_PROFILE
  const node = await startChildNode({
    env: { RATE_LIMIT_PER_MINUTE: "100000000", LIVE_MAX_SOCKETS_PER_BEING: "100000" },
    nodeFlags: ["--import", hook, ...(profileDir ? ["--cpu-prof", "--cpu-prof-dir", profileDir] : [])]
  })
  const server: BenchServer = {
    url: node.url,
    pid: node.pid,
    cpuSeconds: () => cpuSeconds(node.pid),
    loopDelay: loopDelayOf(node.pid, node.output),
    close: node.close
  }
  return { ...server, cookie: await register(node, node.ownerCode) }
}

/** The raw `ws` anchor: a plain script, only `ws` and node:http loaded (besides the preload). */
export const startAnchorServer = async (): Promise<BenchServer> => {
  const port = await freePort()
  const profileDir = process.env.BENCH_LIVE_PROFILE
  const profile = profileDir ? ["--cpu-prof", "--cpu-prof-dir", profileDir] : []
  const anchor = spawnServer(
    "the raw ws anchor",
    ["--import", hook, ...profile, anchorScript, "--port", String(port)],
    port,
    {
      env: { ...process.env, LOOP_DELAY_EXIT_ON_TERM: "1" }
    }
  )
  await waitForLine(anchor, /listening at/)
  return {
    url: anchor.url,
    pid: anchor.pid,
    cpuSeconds: () => cpuSeconds(anchor.pid),
    loopDelay: loopDelayOf(anchor.pid, anchor.output),
    // SIGTERM: the preload exits on it, so a CPU profile is written.
    close: () => stop(anchor, "SIGTERM")
  }
}
