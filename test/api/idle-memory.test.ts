/**
 * A node at rest gives back the memory its start grew: a real node in a child process
 * (host/bundled-start.ts, as `npm start` runs it after the web app's build check), whose resident size
 * drops under 200 MB once it has started and served the owner's registration. Without the
 * collection after start (host/settle-heap.ts) it stays near 260 MB, most of it the young
 * generation that loading the modules grew. And what a load of requests grew, it gives back once quiet.
 */
import { spawn } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, expect, it } from "vitest"
import { autocannon } from "../bench/scale-out/load.ts"
import { QUIET_SECONDS } from "../../host/settle-heap.ts"
import { person } from "../support/node.ts"
import { until } from "../support/until.ts"

const nodeBinary = fileURLToPath(new URL("../../node_modules/.bin/node", import.meta.url))
const startScript = fileURLToPath(new URL("../../host/bundled-start.ts", import.meta.url))
const ownerCode = "owner-code-for-the-idle-memory-test"
const dataDir = mkdtempSync(join(tmpdir(), "idle-memory-"))

afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

const residentMb = (pid: number) =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024

/** A node started as `npm start` starts it, once it has started and served the owner's registration. */
const startedNode = async (dataDir: string, flags: ReadonlyArray<string> = [], env: NodeJS.ProcessEnv = {}) => {
  const port = 20_000 + Math.floor(Math.random() * 20_000)
  const child = spawn(nodeBinary, [...flags, startScript], {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: "127.0.0.1",
      OWNER_ACCESS_CODE: ownerCode,
      PLUGIN_DIR: join(dataDir, "plugins"),
      ...env
    },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let output = ""
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      const match = /The node is listening at (\S+)/.exec(output)
      // The owner code line comes once the services are up: from then on the node is at rest.
      if (match !== null && output.includes("Owner access code")) resolve(match[1]!)
    }
    child.stdout.on("data", onData)
    child.stderr.on("data", onData)
    child.once("exit", () => reject(new Error(`the node exited during start:\n${output}`)))
  }).catch((error: unknown) => {
    child.kill("SIGKILL")
    throw error
  })
  const answer = await fetch(`${url}/api/auth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(person(ownerCode))
  })
  if (answer.status !== 200) throw new Error(`registration answered ${answer.status}: ${await answer.text()}`)
  const cookie = answer.headers
    .getSetCookie()
    .find((line) => line.startsWith("svc_session="))!
    .split(";")[0]!
  return { child, url, cookie, output: () => output }
}

it("settles under 200 MB resident once started and idle", async () => {
  const { child } = await startedNode(dataDir)
  try {
    // Waits on the memory itself, polling /proc, within a deadline (the collection runs 1.5 s after start).
    let resident = residentMb(child.pid!)
    await until(
      () => `the node to settle under 200 MB resident (last read ${resident} MB)`,
      () => {
        resident = residentMb(child.pid!)
        return resident < 200
      },
      20_000
    )
  } finally {
    child.kill("SIGKILL")
  }
}, 60_000)

/** V8's heap as the node's own metrics tell it (prom-client's default series). */
const heapTotalMb = async (url: string, cookie: string) => {
  const text = await (await fetch(`${url}/api/metrics`, { headers: { cookie } })).text()
  return Number(/^nodejs_heap_size_total_bytes (\S+)$/m.exec(text)![1]) / 2 ** 20
}

it("gives back what a load of requests grew once it is quiet", async () => {
  const loadDir = mkdtempSync(join(tmpdir(), "idle-after-load-"))
  // The load is one client's: the per-address budget (300 a minute) would answer it 429s.
  const { child, url, cookie } = await startedNode(loadDir, [], { RATE_LIMIT_PER_MINUTE: "100000000" })
  try {
    // Until the collection after start has run: its heap is then the node's at rest.
    let settled = await heapTotalMb(url, cookie)
    await until(
      () => `the node's heap to settle after start (last read ${settled.toFixed(1)} MB)`,
      async () => {
        settled = await heapTotalMb(url, cookie)
        return settled < 80
      },
      20_000,
      1_000
    )
    await new Promise((resolve, reject) =>
      autocannon({ url: `${url}/api/auth/me`, connections: 20, duration: 3, headers: { cookie } }, (error, result) =>
        error === null ? resolve(result) : reject(error)
      )
    )
    // The load grew the heap past what the node collects for (8 MB, host/settle-heap.ts) ...
    const loaded = await heapTotalMb(url, cookie)
    expect(loaded - settled).toBeGreaterThan(8)
    // ... and once the node has been at rest for QUIET_SECONDS it is given back, near what it held after start; without
    // the watch it stays (V8's own memory reducer gives back a few megabytes of it at most).
    let last = loaded
    await until(
      () =>
        `the heap to shrink from ${loaded.toFixed(1)} MB to within 10 MB of its ${settled.toFixed(1)} MB at rest after start (last read ${last.toFixed(1)} MB)`,
      async () => {
        last = await heapTotalMb(url, cookie)
        return last < settled + 10
      },
      // V8's own memory reducer may collect a few times in the first seconds after a load, and a second it spends
      // doing so is not a quiet one: up to four times the quiet time.
      QUIET_SECONDS * 4 * 1000,
      // Scraping is work: read every few seconds, so the node's seconds stay quiet.
      3_000
    )
  } finally {
    child.kill("SIGKILL")
    rmSync(loadDir, { recursive: true, force: true })
  }
}, 120_000)

/**
 * Libraries only a skill, a document or a mail read uses: loaded at first use (kernel/lazy-module.ts), not at start.
 */
const skillOnly = ["yaml", "html-to-text", "marked", "acorn", "rrule", "image-size", "sentiment", "@napi-rs/canvas"]

// Records every module the node loads, and prints the list when asked (SIGUSR2).
const recorder = `data:text/javascript,${encodeURIComponent(`
  import { registerHooks } from "node:module"
  const loaded = new Set()
  registerHooks({ load(url, context, next) { loaded.add(url); return next(url, context) } })
  process.on("SIGUSR2", () => process.stderr.write("LOADED " + JSON.stringify([...loaded]) + "\\n"))
`)}`

it("holds none of the skill-only libraries once started and idle", async () => {
  const otherDir = mkdtempSync(join(tmpdir(), "idle-libraries-"))
  const { child, output } = await startedNode(otherDir, ["--import", recorder])
  try {
    const listed = /^LOADED (.*)$/m
    const line = new Promise<string>((resolve) => {
      const onData = () => {
        const match = listed.exec(output())
        if (match !== null && output().includes(`${match[0]}\n`)) resolve(match[0])
      }
      child.stderr.on("data", onData)
    })
    child.kill("SIGUSR2")
    const loadedLine = await line
    const packages = new Set(
      (JSON.parse(loadedLine.slice("LOADED ".length)) as Array<string>)
        .map((url) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1])
        .filter((name) => name !== undefined)
    )
    // The recorder saw the node's packages: the database driver, a native addon, is never in the bundle.
    expect(packages.has("better-sqlite3")).toBe(true)
    expect(skillOnly.filter((name) => packages.has(name))).toEqual([])
  } finally {
    child.kill("SIGKILL")
    rmSync(otherDir, { recursive: true, force: true })
  }
}, 60_000)
