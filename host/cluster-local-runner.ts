/**
 * One runner process of `npm run cluster:local` (host/cluster-local.ts): a node (host/bundled-start.ts) with
 * the settings it is given, its output relayed line by line with its name in front. The owner code
 * lines it prints are held back and handed to the script, which prints them once for the cluster
 * (both runners print the same code while nobody has registered).
 */
import { spawn, type ChildProcess } from "node:child_process"
import { createInterface } from "node:readline"
import { fileURLToPath } from "node:url"

const startScript = fileURLToPath(new URL("./bundled-start.ts", import.meta.url))

/** The node's own lines (host/boot.ts) that carry the owner access code. */
const isOwnerCodeLine = (line: string) =>
  line.startsWith("Owner access code: ") || line.startsWith("Register as the owner at ")

export interface LocalRunner {
  readonly name: string
  readonly pid: number
  /** The URL it listens at, once it says so; rejects if it exits first. */
  readonly listening: Promise<string>
  /** Resolves when the process has exited. */
  readonly exited: Promise<void>
  readonly running: () => boolean
  readonly signal: (signal: NodeJS.Signals) => void
}

export const startRunner = (
  name: string,
  env: Record<string, string>,
  onOwnerCodeLine: (line: string) => void
): LocalRunner => {
  // Its own process group: a Ctrl-C in the terminal reaches the script alone, which then stops
  // the runners one signal each (a node takes a second signal as "exit at once").
  const child: ChildProcess = spawn(process.execPath, [startScript], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true
  })
  let onUrl: (url: string) => void = () => {}
  const listening = new Promise<string>((resolve, reject) => {
    onUrl = resolve
    child.once("exit", (code, signal) =>
      reject(new Error(`${name} exited before it listened (${signal ?? `exit ${code}`})`))
    )
  })
  listening.catch(() => {})
  const relay = (stream: NodeJS.ReadableStream, out: NodeJS.WriteStream) =>
    createInterface({ input: stream }).on("line", (line) => {
      if (isOwnerCodeLine(line)) return onOwnerCodeLine(line)
      const url = /^The node is listening at (\S+)/.exec(line)
      if (url !== null) onUrl(url[1]!)
      out.write(`[${name}] ${line}\n`)
    })
  relay(child.stdout!, process.stdout)
  relay(child.stderr!, process.stderr)
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()))
  const running = () => child.exitCode === null && child.signalCode === null
  return {
    name,
    pid: child.pid!,
    listening,
    exited,
    running,
    signal: (signal) => {
      if (running()) child.kill(signal)
    }
  }
}

/** Resolves once the runner answers GET /api/health; rejects if it exits or the deadline passes. */
export const untilHealthy = async (runner: LocalRunner, url: string, timeoutMs: number): Promise<void> => {
  const deadline = Date.now() + timeoutMs
  while (runner.running()) {
    const healthy = await fetch(`${url}/api/health`).then(
      (response) => response.ok,
      () => false
    )
    if (healthy) return
    if (Date.now() > deadline)
      throw new Error(`${runner.name} did not answer ${url}/api/health within ${timeoutMs / 1000} s`)
    await Promise.race([runner.exited, new Promise((resolve) => setTimeout(resolve, 200))])
  }
  throw new Error(`${runner.name} exited before it answered`)
}
