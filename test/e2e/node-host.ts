/**
 * A real node for end-to-end tests: `host/main.ts` in its own process on Node 24, a fresh
 * data directory, an ephemeral port, no OWNER_ACCESS_CODE (so the node generates one and
 * prints it). Resolves once the banner has named the URL and the owner code. A test may halt
 * the node's process and restart it on the same port and data directory, as an upgrade would.
 */
import { spawn } from "node:child_process"
import { mkdtemp, rm } from "node:fs/promises"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createInterface } from "node:readline"
import { fileURLToPath } from "node:url"

const repoRoot = fileURLToPath(new URL("../..", import.meta.url))
const nodeBinary = join(repoRoot, "node_modules", ".bin", "node")

export interface RunningNode {
  readonly url: string
  readonly ownerCode: string
  /** The register link the banner prints beside the code. */
  readonly registerLink: string
  /** Stops the node and removes its data directory. */
  readonly stop: () => Promise<void>
  /** Stops the node's process and keeps its data, as a crash or an upgrade would. */
  readonly halt: () => Promise<void>
  /** Starts a halted node again on the same port and data directory; resolves once it listens. */
  readonly restart: () => Promise<void>
}

/** Signals every process of the group; false when none is left. */
const signalGroup = (pid: number, signal: NodeJS.Signals | 0): boolean => {
  try {
    process.kill(-pid, signal)
    return true
  } catch {
    return false
  }
}

const groupAlive = (pid: number): boolean => signalGroup(pid, 0)

/**
 * Resolves once no process of the group is left: a wrapper (npm) may exit before the node under
 * it has finished shutting down. Answers false if `ms` passed first.
 */
const groupEnded = async (pid: number, ms: number): Promise<boolean> => {
  const deadline = Date.now() + ms
  while (groupAlive(pid)) {
    if (Date.now() > deadline) return false
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  return true
}

/** Stops a process started `detached` and everything under it: SIGTERM, then SIGKILL after 5 seconds. */
export const stopGroup = async (pid: number): Promise<void> => {
  if (!signalGroup(pid, "SIGTERM") || (await groupEnded(pid, 5_000))) return
  signalGroup(pid, "SIGKILL")
  await groupEnded(pid, 5_000)
}

/**
 * A port nobody listens on now. For a node whose mails carry links: the node writes them from
 * its PORT setting, so with PORT=0 they would name port 0 instead of the port it got.
 */
export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() =>
        typeof address === "object" && address !== null ? resolve(address.port) : reject(new Error("no port"))
      )
    })
  })

/** What one process of the node printed and how to end it. */
interface NodeProcess {
  readonly url: string
  readonly ownerCode: string | null
  readonly registerLink: string | null
  readonly stop: () => Promise<void>
}

export interface NodeOptions {
  /** Added to the node's environment; wins over the defaults (SMTP_URL, PORT, …). */
  readonly env?: Readonly<Record<string, string>>
  /** How the node is started, from the repository's root; `node host/main.ts` unless told (`npm start`, say). */
  readonly command?: readonly [string, ...Array<string>]
}

/**
 * Starts `host/main.ts` and resolves once its banner named the URL (and the owner code, when
 * `expectOwnerCode`: a fresh node prints it, one whose owner registered does not).
 */
const spawnNode = async (
  env: NodeJS.ProcessEnv,
  expectOwnerCode: boolean,
  command: readonly [string, ...Array<string>]
): Promise<NodeProcess> => {
  const [program, ...args] = command
  // Its own process group, so stopping it reaches the node under a wrapper such as npm.
  const child = spawn(program, args, { cwd: repoRoot, env, stdio: ["ignore", "pipe", "pipe"], detached: true })
  const output: Array<string> = []
  child.stderr?.on("data", (chunk: Buffer) => output.push(chunk.toString()))
  let stopping = false
  child.once("exit", (code, signal) => {
    // A node that dies under a test is the test's finding: say so with what it printed.
    if (!stopping)
      console.error(`The node exited during the tests (code ${code}, signal ${signal}):\n${output.join("\n")}`)
  })

  const stop = async (): Promise<void> => {
    stopping = true
    if (child.pid !== undefined) await stopGroup(child.pid)
  }

  try {
    const banner = await new Promise<{ url: string; ownerCode: string | null; registerLink: string | null }>(
      (resolve, reject) => {
        let url: string | null = null
        let code: string | null = null
        const lines = createInterface({ input: child.stdout! })
        lines.on("line", (line) => {
          output.push(line)
          url ??= /^The node is listening at (http:\/\/\S+)$/.exec(line)?.[1] ?? null
          code ??= /^Owner access code: (\S+)$/.exec(line)?.[1] ?? null
          const link = /^Register as the owner at (\S+)$/.exec(line)?.[1]
          if (url !== null && code !== null && link !== undefined) resolve({ url, ownerCode: code, registerLink: link })
          else if (url !== null && !expectOwnerCode) resolve({ url, ownerCode: null, registerLink: null })
        })
        child.once("exit", (code, signal) =>
          reject(
            new Error(`The node exited before it was ready (code ${code}, signal ${signal}):\n${output.join("\n")}`)
          )
        )
        child.once("error", reject)
      }
    )
    return { ...banner, stop }
  } catch (error) {
    await stop()
    throw error
  }
}

export const startNode = async (options: NodeOptions = {}): Promise<RunningNode> => {
  const dataDir = await mkdtemp(join(tmpdir(), "node-e2e-"))
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: "0", HOST: "127.0.0.1", ...options.env }
  delete env.OWNER_ACCESS_CODE
  const command = options.command ?? [nodeBinary, "host/main.ts"]
  let current: NodeProcess
  try {
    current = await spawnNode(env, true, command)
  } catch (error) {
    await rm(dataDir, { recursive: true, force: true })
    throw error
  }
  const { url, ownerCode, registerLink } = current
  return {
    url,
    ownerCode: ownerCode ?? "",
    registerLink: registerLink ?? "",
    stop: async () => {
      await current.stop()
      await rm(dataDir, { recursive: true, force: true })
    },
    halt: () => current.stop(),
    restart: async () => {
      current = await spawnNode({ ...env, PORT: new URL(url).port }, false, command)
    }
  }
}
