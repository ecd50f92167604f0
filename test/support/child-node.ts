/**
 * A node as its own process (`node host/bundled-start.ts`, as `npm start` loads it), for tests that need what only a process
 * gives: extra Node flags (a preload such as ./egress-hook.ts), settings read from the
 * environment exactly as `npm start` reads them, or a kill -9 and a start again over the same
 * data folder at the same address. Resolves once the node listens.
 */
import { spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { freePort } from "./free-port.ts"

const nodeBinary = fileURLToPath(new URL("../../node_modules/.bin/node", import.meta.url))
const startScript = fileURLToPath(new URL("../../host/bundled-start.ts", import.meta.url))
/** A start takes seconds, more on a busy machine; one that has not listened in this long is stuck. */
const START_LIMIT_MS = 60_000

export interface ChildNodeOptions {
  /** Settings as environment variables (docs/operations.md), beside the data folder, port and owner code. */
  readonly env?: Record<string, string>
  /** Node flags before the start script, e.g. ["--import", "./test/support/egress-hook.ts"]. */
  readonly nodeFlags?: ReadonlyArray<string>
  /**
   * An earlier node's data folder, to start again over it (with its `port` and `ownerCode`, the
   * clients of the first node reach the second). A folder given here is the caller's: close()
   * leaves it; a folder made here is removed by close().
   */
  readonly dataDir?: string
  /** The port to listen on; a free one when not given. */
  readonly port?: number
  readonly ownerCode?: string
}

export interface ChildNode {
  readonly url: string
  readonly port: number
  readonly ownerCode: string
  readonly dataDir: string
  /** The process's id (a bench reads its CPU time from /proc). */
  readonly pid: number
  readonly output: () => string
  /** Sends the signal (SIGKILL unless named) and resolves, once the process is gone, with the signal that ended it. */
  readonly kill: (signal?: NodeJS.Signals) => Promise<NodeJS.Signals | null>
  /** Stops the node if it still runs, and removes its data folder unless the caller gave it. */
  readonly close: () => Promise<void>
}

export const startChildNode = async (options: ChildNodeOptions = {}): Promise<ChildNode> => {
  const { env = {}, nodeFlags = [] } = options
  const ownFolder = options.dataDir === undefined
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), "child-node-"))
  const ownerCode = options.ownerCode ?? `owner-code-${process.pid}-${Date.now()}`
  const port = options.port ?? (await freePort())
  const child = spawn(nodeBinary, [...nodeFlags, startScript], {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: "127.0.0.1",
      TRUST_PROXY: "1",
      OWNER_ACCESS_CODE: ownerCode,
      ...env
    },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let output = ""
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once("exit", (_code, signal) => resolve(signal)))
  const url = await new Promise<string>((resolve, reject) => {
    // A start that hangs fails with what the node printed, rather than leaving the test's hook to time out blind.
    const hung = setTimeout(() => {
      child.kill("SIGKILL")
      reject(new Error(`the node did not listen within ${START_LIMIT_MS / 1000} s:\n${output}`))
    }, START_LIMIT_MS)
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      const match = /The node is listening at (\S+)/.exec(output)
      if (match) {
        clearTimeout(hung)
        resolve(match[1]!)
      }
    }
    child.stdout.on("data", onData)
    child.stderr.on("data", onData)
    child.once("exit", () => {
      clearTimeout(hung)
      reject(new Error(`the node exited before listening:\n${output}`))
    })
  })
  const running = () => child.exitCode === null && child.signalCode === null
  let asked = false
  const kill = async (signal: NodeJS.Signals = "SIGKILL") => {
    asked = true
    if (running()) child.kill(signal)
    return exited
  }
  // A node that ends on its own while its test runs says why in the test's output: its requests then fail only with a
  // 503 or a refused connection, which name no cause.
  void exited.then((signal) => {
    if (!asked)
      process.stderr.write(
        `A child node (${url}) ended on its own (${signal ?? `exit ${child.exitCode}`}); what it printed:\n${output}\n`
      )
  })
  return {
    url,
    port,
    ownerCode,
    dataDir,
    pid: child.pid!,
    output: () => output,
    kill,
    close: async () => {
      await kill("SIGTERM")
      if (ownFolder) rmSync(dataDir, { recursive: true, force: true })
    }
  }
}
