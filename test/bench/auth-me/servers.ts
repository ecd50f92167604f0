/**
 * The auth-me section's servers, each its own child process: the node on a fresh data dir with
 * its default environment, and the anchors on the node's node.db. Spawning, waiting for the first
 * healthy answer, reading their memory and stopping them; the owner's registration on the node.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { request as httpRequest, type IncomingHttpHeaders } from "node:http"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { person } from "../../support/person.ts"
import { cpuSeconds } from "../scale-out/load.ts"
import { type Server, sleep, spawnServer, waitForLine } from "../spawned-server.ts"
import { nodeDir, nodeFlags, nodeMain, RATE_LIMIT, repoRoot } from "./settings.ts"

/** The four servers, in the order each round loads them. */
export type Target = "node" | "effect" | "fastify" | "raw"
export const targets: ReadonlyArray<Target> = ["node", "effect", "fastify", "raw"]

// ---------------------------------------------------------------------------------------------
// Processes (spawned through ../spawned-server.ts)

const tempDirs = new Set<string>()
process.on("exit", () => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true })
})

export const tempDir = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  tempDirs.add(dir)
  return dir
}

export const removeDir = (dir: string) => {
  rmSync(dir, { recursive: true, force: true })
  tempDirs.delete(dir)
}

export const freePort = () =>
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

/** `env`: settings that differ from the node's defaults for this run, e.g. RATE_LIMIT_STORE. */
export const spawnNode = (dataDir: string, port: number, env: NodeJS.ProcessEnv = {}) =>
  spawnServer("node", [...nodeFlags, nodeMain], port, { cwd: nodeDir, env: { ...nodeEnv(dataDir, port), ...env } })

export const spawnAnchor = (name: string, file: string, db: string, port: number) =>
  spawnServer(name, [file, "--db", db, "--port", String(port)], port, { cwd: repoRoot })

// ---------------------------------------------------------------------------------------------
// HTTP without fetch: undici loads lazily and would add its own start-up to the first poll.

interface Answer {
  readonly status: number
  readonly headers: IncomingHttpHeaders
  readonly body: string
}

export const call = (url: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}) =>
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
export const firstHealthy = async (server: Server, since: number, timeoutMs = 60_000) => {
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

// ---------------------------------------------------------------------------------------------
// /proc

const rssMb = (pid: number) => {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))
  return match === null ? Number.NaN : Number(match[1]) / 1024
}

export const rssOfAll = (servers: Record<Target, Server>): Record<Target, number> => ({
  node: rssMb(servers.node.pid),
  effect: rssMb(servers.effect.pid),
  fastify: rssMb(servers.fastify.pid),
  raw: rssMb(servers.raw.pid)
})

// ---------------------------------------------------------------------------------------------
// The node under load

/** Spawns the node on a fresh data dir; answers it once it printed its access code. */
export const startNode = async (env: NodeJS.ProcessEnv = {}) => {
  const dataDir = tempDir("bench-node-")
  const port = await freePort()
  const spawned = spawnNode(dataDir, port, env)
  const listening = await waitForLine(spawned, /listening at (http:\/\/\S+)/)
  const match = await waitForLine(spawned, /Owner access code: (\S+)/)
  // The address the node says it listens at, in case it is not the one it was given.
  const server: Server = { ...spawned, url: listening[1].replace(/\/+$/, "") }
  return { server, dataDir, accessCode: match[1] }
}

export const register = async (node: Pick<Server, "url">, accessCode: string) => {
  const answer = await call(`${node.url}/api/auth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(person(accessCode))
  })
  const setCookie = answer.headers["set-cookie"]?.find((line) => line.startsWith("svc_session="))
  if (answer.status !== 200 || setCookie === undefined) {
    throw new Error(`registration answered ${answer.status}: ${answer.body}`)
  }
  return setCookie.split(";")[0]
}
