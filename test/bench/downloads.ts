/**
 * Download throughput (issue 10): one 100 MB file of the owner's folder (FILES_ROOT) through
 * `GET /api/files/download?id=`, whole (one connection, one download after another) and as 100
 * concurrent single-range requests (1 MB each at seeded offsets), beside nginx serving the same
 * file from the same folder (its own process, one worker, sendfile on), where /usr/sbin/nginx
 * exists; a note says it was skipped otherwise. The node runs as `npm start` does (host/main.ts,
 * its own process), with a rate limit high enough not to answer 429s. Aim: ≥ 0.5× nginx.
 */
import { spawn, type ChildProcess } from "node:child_process"
import { randomBytes } from "node:crypto"
import { existsSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync, closeSync } from "node:fs"
import { Agent, request } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { freePort } from "../support/free-port.ts"
import { person } from "../support/person.ts"

const repoRoot = fileURLToPath(new URL("../..", import.meta.url))
const nodeBin = join(repoRoot, "node_modules", ".bin", "node")
const nginxBin = "/usr/sbin/nginx"
const FILE_MB = Number(process.env.BENCH_DOWNLOAD_MB ?? 100)
const WHOLE_RUNS = 5
const RANGE_REQUESTS = 100
const RANGE_BYTES = 1024 * 1024
const RANGE_ROUNDS = 5
const FILE_NAME = "big.bin"

/** Spawns a server and waits for `ready` in its output (or its port to answer). */
const spawnUntil = (
  command: string,
  args: ReadonlyArray<string>,
  env: NodeJS.ProcessEnv,
  ready: (output: string) => boolean
) =>
  new Promise<{ child: ChildProcess; output: () => string }>((resolve, reject) => {
    const child = spawn(command, args, { env, cwd: repoRoot, stdio: ["ignore", "pipe", "pipe"] })
    let output = ""
    const timer = setTimeout(() => reject(new Error(`${command} did not start:\n${output}`)), 60_000)
    const seen = (chunk: Buffer) => {
      output += chunk.toString()
      if (ready(output)) {
        clearTimeout(timer)
        resolve({ child, output: () => output })
      }
    }
    child.stdout?.on("data", seen)
    child.stderr?.on("data", seen)
    child.once("exit", (code) => {
      clearTimeout(timer)
      reject(new Error(`${command} exited with ${code}:\n${output}`))
    })
  })

const stop = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve()
    child.once("exit", () => resolve())
    child.kill("SIGKILL")
  })

/** One GET, its body counted and dropped; answers its status and byte count. */
const get = (agent: Agent, url: string, headers: Record<string, string>) =>
  new Promise<{ status: number; bytes: number }>((resolve, reject) => {
    const req = request(url, { agent, headers }, (res) => {
      let bytes = 0
      res.on("data", (chunk: Buffer) => (bytes += chunk.length))
      res.on("end", () => resolve({ status: res.statusCode ?? 0, bytes }))
      res.on("error", reject)
    })
    req.on("error", reject)
    req.end()
  })

const json = async (url: string, init: RequestInit) => {
  const answer = await fetch(url, init)
  if (!answer.ok) throw new Error(`${init.method ?? "GET"} ${url} answered ${answer.status}: ${await answer.text()}`)
  return answer
}

interface Figures {
  readonly wholeMBps: number
  readonly rangeMBps: number
  readonly rangeP99Ms: number
}

const median = (values: ReadonlyArray<number>) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

/** Whole downloads one after another, then rounds of 100 concurrent ranges; every answer checked. */
const measure = async (url: string, headers: Record<string, string>, size: number): Promise<Figures> => {
  const one = new Agent({ keepAlive: true, maxSockets: 1 })
  const many = new Agent({ keepAlive: true, maxSockets: RANGE_REQUESTS })
  try {
    await get(one, url, headers)
    const wholeRates: Array<number> = []
    for (let run = 0; run < WHOLE_RUNS; run++) {
      const started = performance.now()
      const answer = await get(one, url, headers)
      if (answer.status !== 200 || answer.bytes !== size)
        throw new Error(`a whole download answered ${answer.status} with ${answer.bytes} bytes`)
      wholeRates.push(size / 1e6 / ((performance.now() - started) / 1000))
    }
    let seed = 7
    const offset = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31
      return seed % (size - RANGE_BYTES)
    }
    const rangeRates: Array<number> = []
    const latencies: Array<number> = []
    for (let round = 0; round < RANGE_ROUNDS; round++) {
      const started = performance.now()
      await Promise.all(
        Array.from({ length: RANGE_REQUESTS }, async () => {
          const from = offset()
          const began = performance.now()
          const answer = await get(many, url, { ...headers, range: `bytes=${from}-${from + RANGE_BYTES - 1}` })
          latencies.push(performance.now() - began)
          if (answer.status !== 206 || answer.bytes !== RANGE_BYTES)
            throw new Error(`a range answered ${answer.status} with ${answer.bytes} bytes`)
        })
      )
      rangeRates.push((RANGE_REQUESTS * RANGE_BYTES) / 1e6 / ((performance.now() - started) / 1000))
    }
    latencies.sort((a, b) => a - b)
    return {
      wholeMBps: median(wholeRates),
      rangeMBps: median(rangeRates),
      rangeP99Ms: latencies[Math.floor(latencies.length * 0.99)]!
    }
  } finally {
    one.destroy()
    many.destroy()
  }
}

/** The node on a fresh data dir with FILES_ROOT, its owner registered; answers the download URL and cookie. */
const startNode = async (folder: string, dataDir: string) => {
  const port = await freePort()
  const env: NodeJS.ProcessEnv = { ...process.env }
  for (const name of [
    "SESSION_SECRET",
    "OWNER_ACCESS_CODE",
    "PUBLIC_URL",
    "SMTP_URL",
    "LLM_API_KEY",
    "LLM_BASE_URL",
    "TRUST_PROXY"
  ])
    delete env[name]
  const node = await spawnUntil(
    nodeBin,
    [join(repoRoot, "host", "main.ts")],
    {
      ...env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: "127.0.0.1",
      RATE_LIMIT_PER_MINUTE: "100000000",
      PLUGIN_DIR: join(dataDir, "plugins"),
      FILES_ROOT: folder
    },
    (output) => /Owner access code: \S+/.test(output) && /listening at/.test(output)
  )
  const base = `http://127.0.0.1:${port}`
  const accessCode = /Owner access code: (\S+)/.exec(node.output())![1]!
  const registered = await json(`${base}/api/auth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(person(accessCode))
  })
  const cookie = registered.headers.getSetCookie()[0]!.split(";")[0]!
  const listed = (await (await json(`${base}/api/files?scope=user`, { headers: { cookie } })).json()) as Array<{
    id: string
    name: string
  }>
  const id = listed.find((entry) => entry.name === FILE_NAME)?.id
  if (id === undefined) throw new Error("the node does not list the bench file")
  return { child: node.child, url: `${base}/api/files/download?id=${id}`, cookie }
}

const startNginx = async (folder: string, dir: string) => {
  const port = await freePort()
  const conf = join(dir, "nginx.conf")
  // Its own temp paths and logs in the bench's folder; as root it keeps root for the worker, which must read the
  // folder.
  writeFileSync(
    conf,
    `${process.getuid?.() === 0 ? "user root;\n" : ""}worker_processes 1;
daemon off;
pid ${join(dir, "nginx.pid")};
error_log ${join(dir, "error.log")} warn;
events { worker_connections 1024; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  client_body_temp_path ${join(dir, "body")};
  proxy_temp_path ${join(dir, "proxy")};
  fastcgi_temp_path ${join(dir, "fastcgi")};
  uwsgi_temp_path ${join(dir, "uwsgi")};
  scgi_temp_path ${join(dir, "scgi")};
  server {
    listen 127.0.0.1:${port};
    root ${folder};
    location / { add_header Content-Disposition attachment; }
  }
}
`
  )
  const child = spawn(nginxBin, ["-c", conf, "-p", dir, "-e", join(dir, "error.log")], { stdio: "ignore" })
  const url = `http://127.0.0.1:${port}/${FILE_NAME}`
  for (let tries = 0; ; tries++) {
    const answer = await fetch(url, { method: "HEAD" }).catch(() => null)
    if (answer?.ok === true) break
    if (tries > 200 || child.exitCode !== null) throw new Error(`nginx did not start (exit ${child.exitCode})`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  return { child, url }
}

export const benchDownloads = async () => {
  const dir = mkdtempSync(join(tmpdir(), "bench-downloads-"))
  const folder = join(dir, "files")
  mkdirSync(folder)
  const size = FILE_MB * 1024 * 1024
  const fd = openSync(join(folder, FILE_NAME), "w")
  for (let written = 0; written < size; written += 1024 * 1024) writeSync(fd, randomBytes(1024 * 1024))
  closeSync(fd)
  const children: Array<ChildProcess> = []
  try {
    const node = await startNode(folder, join(dir, "data"))
    children.push(node.child)
    const ours = await measure(node.url, { cookie: node.cookie }, size)
    await stop(node.child)
    let nginx: Figures | null = null
    if (existsSync(nginxBin)) {
      const server = await startNginx(folder, dir)
      children.push(server.child)
      nginx = await measure(server.url, {}, size)
      await stop(server.child)
    }
    const mb = (value: number) => `${value.toFixed(0)} MB/s`
    const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}× nginx${a / b >= 0.5 ? "" : " (aim ≥ 0.5×: missed)"}`
    const rows = [
      ["figure", "node", "nginx", "ratio"],
      [
        `download, ${FILE_MB} MB whole, one connection (median of ${WHOLE_RUNS})`,
        mb(ours.wholeMBps),
        nginx === null ? "—" : mb(nginx.wholeMBps),
        nginx === null ? "" : ratio(ours.wholeMBps, nginx.wholeMBps)
      ],
      [
        `download, ${RANGE_REQUESTS} concurrent 1 MB ranges (median of ${RANGE_ROUNDS} rounds)`,
        mb(ours.rangeMBps),
        nginx === null ? "—" : mb(nginx.rangeMBps),
        nginx === null ? "" : ratio(ours.rangeMBps, nginx.rangeMBps)
      ],
      [
        "  a range's p99 latency",
        `${ours.rangeP99Ms.toFixed(0)} ms`,
        nginx === null ? "—" : `${nginx.rangeP99Ms.toFixed(0)} ms`,
        ""
      ]
    ]
    for (const row of rows) console.log(row.map((cell, index) => cell.padEnd(index === 0 ? 64 : 14)).join(""))
    if (nginx === null)
      console.log(`(nginx anchor skipped: ${nginxBin} is not installed; apt-get install -y nginx adds it)`)
  } finally {
    for (const child of children) await stop(child)
    rmSync(dir, { recursive: true, force: true })
  }
}

if (import.meta.main) await benchDownloads()
