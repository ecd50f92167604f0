/**
 * A bench's server as a process of its own, on the repository's Node 24: spawned, its stdout and stderr kept as one
 * text, waited for by a line it prints, and stopped. One spawner for the sections that measure the node beside a raw
 * anchor (auth-me, rate-limit, live-channel). A server still running when the bench exits is killed then.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { fileURLToPath } from "node:url"

const repoRoot = fileURLToPath(new URL("../..", import.meta.url))
const nodeBin = fileURLToPath(new URL("../../node_modules/.bin/node", import.meta.url))

const children = new Set<ChildProcess>()
process.on("exit", () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL")
})
process.on("SIGINT", () => process.exit(130))

export interface Server {
  readonly name: string
  readonly child: ChildProcess
  readonly pid: number
  readonly url: string
  readonly output: () => string
}

const exited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null

/** `args`: node's flags, the script and its arguments; the server listens on 127.0.0.1 at `port`. */
export const spawnServer = (
  name: string,
  args: ReadonlyArray<string>,
  port: number,
  options: { readonly cwd?: string; readonly env?: NodeJS.ProcessEnv } = {}
): Server => {
  const child = spawn(nodeBin, args, {
    cwd: options.cwd ?? repoRoot,
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

/** Stops the server and waits for its exit: SIGKILL unless it should finish something first (a CPU profile). */
export const stop = (server: Server, signal: NodeJS.Signals = "SIGKILL") =>
  new Promise<void>((resolveStop) => {
    if (exited(server.child)) return resolveStop()
    server.child.once("exit", () => resolveStop())
    server.child.kill(signal)
  })

export const sleep = (ms: number) => new Promise((resolveSleep) => setTimeout(resolveSleep, ms))

export const waitForLine = async (server: Server, pattern: RegExp, timeoutMs = 60_000) => {
  const started = performance.now()
  while (performance.now() - started < timeoutMs) {
    const match = pattern.exec(server.output())
    if (match !== null) return match
    if (exited(server.child)) throw new Error(`${server.name} exited:\n${server.output()}`)
    await sleep(10)
  }
  throw new Error(`${server.name} printed nothing matching ${pattern} within ${timeoutMs} ms:\n${server.output()}`)
}
