/**
 * `npm run cluster:local` (host/cluster-local.ts) as a person runs it, over a temp folder
 * (CLUSTER_LOCAL_DIR) with free ports (PORT=0): it prints both runners' URLs and the owner code
 * once; the owner registers with that code on one runner and is signed in on the other; SIGTERM
 * leaves nothing running (runners, postmaster); a second start reuses the PostgreSQL folder (no
 * initdb) and the data in it. Without PostgreSQL's binaries it says what to install.
 */
import { spawn } from "node:child_process"
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, expect, it } from "vitest"
import { Client, person, run } from "../support/node.ts"
import { until } from "../support/until.ts"

const nodeBinary = fileURLToPath(new URL("../../node_modules/.bin/node", import.meta.url))
const script = fileURLToPath(new URL("../../host/cluster-local.ts", import.meta.url))
const folder = mkdtempSync(join(tmpdir(), "cluster-local-"))
// As root the script runs PostgreSQL as `postgres`, which must get through this folder to its own.
chmodSync(folder, 0o755)
const root = join(folder, "cluster")
const postmasterPidFile = join(root, "postgres", "data", "postmaster.pid")

interface Started {
  readonly pid: number
  readonly output: () => string
  readonly urls: ReadonlyArray<string>
  readonly exited: Promise<number | null>
}

const starts: Array<Started> = []
afterAll(async () => {
  for (const start of starts) {
    try {
      process.kill(start.pid, "SIGTERM")
    } catch {
      // gone already
    }
    await start.exited
  }
  rmSync(folder, { recursive: true, force: true })
})

/** Starts the script and resolves once it printed both runners' URLs. */
const startCluster = async (): Promise<Started> => {
  const child = spawn(nodeBinary, [script], {
    env: { ...process.env, CLUSTER_LOCAL_DIR: root, PORT: "0" },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let output = ""
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)))
  const urls = await new Promise<Array<string>>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      const first = /^Runner 1: (\S+)$/m.exec(output)
      const second = /^Runner 2: (\S+)$/m.exec(output)
      if (first !== null && second !== null) resolve([first[1]!, second[1]!])
    }
    child.stdout.on("data", onData)
    child.stderr.on("data", onData)
    void exited.then(() => reject(new Error(`the cluster script exited before both runners were up:\n${output}`)))
  })
  const started = { pid: child.pid!, output: () => output, urls, exited }
  starts.push(started)
  return started
}

/** Processes whose parent is `pid`, read from /proc. */
const childrenOf = (pid: number): Array<number> =>
  readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .flatMap((name) => {
      try {
        const stat = readFileSync(`/proc/${name}/stat`, "utf8")
        return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === pid ? [Number(name)] : []
      } catch {
        return []
      }
    })

/** Running: present and not a zombie waiting to be reaped. */
const alive = (pid: number): boolean => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z"
  } catch {
    return false
  }
}

/** The same browser (its cookies) on another runner. */
const sameBrowserOn = (url: string, client: Client) => {
  const other = new Client(url)
  other.copyCookiesFrom(client)
  return other
}

/**
 * Whether the process runs the node: a runner, not a passing helper process. host/bundled-start.ts becomes
 * `node <bundle>/serve.mjs` once its bundle is current (the same process).
 */
const runsNode = (pid: number): boolean => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8")
      .split("\0")
      .some((arg) => arg.endsWith("host/bundled-start.ts") || arg.endsWith("/serve.mjs"))
  } catch {
    return false
  }
}

const stopCluster = async (started: Started) => {
  const runners = childrenOf(started.pid).filter(runsNode)
  const postmaster = Number(readFileSync(postmasterPidFile, "utf8").split("\n")[0])
  expect(runners).toHaveLength(2)
  expect(alive(postmaster)).toBe(true)
  process.kill(started.pid, "SIGTERM")
  expect(await started.exited).toBe(0)
  expect([...runners, postmaster].filter(alive)).toEqual([])
  expect(existsSync(postmasterPidFile)).toBe(false)
  expect(started.output()).toContain("cluster: stopped")
}

let registration: ReturnType<typeof person>

it("says in one line what to install when PostgreSQL is missing, and makes nothing", async () => {
  const elsewhere = join(folder, "no-postgres")
  const child = spawn(nodeBinary, [script], {
    env: { ...process.env, CLUSTER_LOCAL_DIR: elsewhere, POSTGRES_BIN_DIR: join(folder, "no-such-bin") },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let output = ""
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()))
  const code = await new Promise<number | null>((resolve) => child.once("close", resolve))
  expect(code).toBe(1)
  expect(output.trim().split("\n")).toEqual([expect.stringContaining("install it with: apt-get install postgresql")])
  expect(existsSync(elsewhere)).toBe(false)
})

it("starts two runners over one PostgreSQL: the code printed once, a session made on one is good on the other", async () => {
  const started = await startCluster()
  // A runner prints the owner code once its services are up, which may be after both runners named their URLs.
  const code = await until(
    "the owner code in the cluster's output",
    () => /^Owner access code: (\S+)$/m.exec(started.output())?.[1],
    30_000
  )
  const output = started.output()
  expect(output).toContain("cluster: initialising PostgreSQL")
  expect(output.match(/Owner access code:/g)).toHaveLength(1)
  const [first, second] = started.urls
  expect(first).not.toBe(second)

  registration = person(code!)
  const owner = new Client(first!)
  const { being } = await run(owner.api.authPublic.register({ payload: registration }))
  const me = await run(sameBrowserOn(second!, owner).api.auth.me())
  expect(me.being.id).toBe(being.id)

  await stopCluster(started)
}, 300_000)

it("starts again over the same folder: no initdb, the owner and their data still there", async () => {
  const started = await startCluster()
  const output = started.output()
  expect(output).toContain("cluster: reusing PostgreSQL")
  expect(output).not.toContain("initialising")
  // The owner has registered: no code to print any more.
  expect(output).not.toContain("Owner access code")
  const [first, second] = started.urls
  const browser = new Client(second!)
  await run(browser.api.authPublic.login({ payload: { email: registration.email, password: registration.password } }))
  const me = await run(sameBrowserOn(first!, browser).api.auth.me())
  expect(me.being.handle).toBe(registration.handle)

  await stopCluster(started)
}, 300_000)
