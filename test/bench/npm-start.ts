/**
 * `npm start` → the first 200 on `/` (the page the printed URL opens), on a built tree: the
 * command a person types, npm's own start-up included. Anchor, measured in the same run and
 * taking turns with the node: `npm start` of a scratch package whose start script is a bare
 * `node -e` HTTP server (same npm, same Node 24, same .npmrc), i.e. what npm and Node cost
 * before any of our code runs. Two figures for the node: on a fresh data dir (a first start:
 * migrations, seeds, the owner code) and on one that has started before (a restart); and when
 * the URL was printed. Prints figures; never fails on a number.
 *
 * Knob (environment): BENCH_NPM_START_RUNS (5) starts of each.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { copyFileSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { request } from "node:http"
import { freePort } from "../support/free-port.ts"
import { loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { ensureUiBuild } from "../../ui/build.ts"
import { meets, recordVerdict } from "./verdicts.ts"

const repoRoot = fileURLToPath(new URL("../..", import.meta.url))
const runs = Math.max(1, Math.round(Number(process.env.BENCH_NPM_START_RUNS) || 5))
/** Issue 27's aim for `npm start` to the first 200 on /, a restart. */
const aimMs = 1200

const bareServer =
  'require("node:http").createServer((q, s) => s.end("ok")).listen(+process.env.PORT, process.env.HOST, () => console.log("listening"))'

const statusOf = (url: string) =>
  new Promise<number>((resolve) => {
    const outgoing = request(url, { agent: false }, (incoming) => {
      incoming.resume()
      incoming.on("end", () => resolve(incoming.statusCode ?? 0))
    })
    outgoing.on("error", () => resolve(0))
    outgoing.end()
  })

/** Ends npm and everything it started (its shell and the server): they share a process group. */
const stop = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return resolve()
    child.once("exit", () => resolve())
    process.kill(-child.pid, "SIGKILL")
  })

interface Start {
  readonly firstOkMs: number
  /** When the line naming the URL came out, if the command prints one. */
  readonly urlPrintedMs: number
}

/** Runs `npm start` in `cwd` and polls `/` every 5 ms until a 200. */
const timeStart = async (cwd: string, env: NodeJS.ProcessEnv, port: number): Promise<Start> => {
  const started = performance.now()
  const child = spawn("npm", ["start", "--silent"], {
    cwd,
    env: { ...env, PORT: String(port), HOST: "127.0.0.1" },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"]
  })
  let output = ""
  let urlPrintedMs = Number.NaN
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString()
    if (Number.isNaN(urlPrintedMs) && /listening/.test(output)) urlPrintedMs = performance.now() - started
  })
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()))
  try {
    while (performance.now() - started < 60_000) {
      if (child.exitCode !== null) throw new Error(`npm start in ${cwd} exited:\n${output}`)
      if ((await statusOf(`http://127.0.0.1:${port}/`)) === 200)
        return { firstOkMs: performance.now() - started, urlPrintedMs }
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
    throw new Error(`npm start in ${cwd} gave no 200 on / within 60 s:\n${output}`)
  } finally {
    await stop(child)
  }
}

/** A package whose `npm start` is a bare node:http server, run by the same npm, Node and .npmrc. */
const scratchPackage = () => {
  const dir = mkdtempSync(join(tmpdir(), "bench-npm-anchor-"))
  writeFileSync(
    join(dir, "package.json"),
    JSON.stringify({ name: "bare-start", private: true, scripts: { start: `node -e '${bareServer}'` } })
  )
  copyFileSync(join(repoRoot, ".npmrc"), join(dir, ".npmrc"))
  symlinkSync(join(repoRoot, "node_modules"), join(dir, "node_modules"))
  return dir
}

const median = (values: ReadonlyArray<number>) => {
  const sorted = [...values].filter(Number.isFinite).sort((a, b) => a - b)
  if (sorted.length === 0) return Number.NaN
  const mid = sorted.length >> 1
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

export const benchNpmStart = async (): Promise<void> => {
  console.log((await ensureUiBuild()).line)
  const anchorDir = scratchPackage()
  const usedDataDir = mkdtempSync(join(tmpdir(), "bench-npm-restart-"))
  const nodeEnv = (dataDir: string): NodeJS.ProcessEnv => {
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PLUGIN_DIR: join(dataDir, "plugins") }
    for (const name of ["OWNER_ACCESS_CODE", "SESSION_SECRET", "PUBLIC_URL", "SMTP_URL", "LLM_API_KEY", "LLM_BASE_URL"])
      delete env[name]
    return env
  }
  const fresh: Array<Start> = []
  const restart: Array<Start> = []
  const anchor: Array<Start> = []
  const loadBefore = loadavg()[0]
  try {
    // The restart's data dir has started once: its migrations and seeds are done.
    await timeStart(repoRoot, nodeEnv(usedDataDir), await freePort())
    for (let run = 0; run < runs; run++) {
      const dataDir = mkdtempSync(join(tmpdir(), "bench-npm-fresh-"))
      fresh.push(await timeStart(repoRoot, nodeEnv(dataDir), await freePort()))
      rmSync(dataDir, { recursive: true, force: true })
      restart.push(await timeStart(repoRoot, nodeEnv(usedDataDir), await freePort()))
      anchor.push(await timeStart(anchorDir, process.env, await freePort()))
    }
  } finally {
    rmSync(anchorDir, { recursive: true, force: true })
    rmSync(usedDataDir, { recursive: true, force: true })
  }

  const fixed = (value: number, digits = 0) => (Number.isFinite(value) ? value.toFixed(digits) : "n/a")
  const firstOk = (starts: ReadonlyArray<Start>) => median(starts.map((start) => start.firstOkMs))
  const urlPrinted = (starts: ReadonlyArray<Start>) => median(starts.map((start) => start.urlPrintedMs))
  const rows: ReadonlyArray<readonly [string, number, number]> = [
    ["npm start → first 200 on /, restart (ms, median)", firstOk(restart), firstOk(anchor)],
    ["npm start → first 200 on /, fresh data dir (ms, median)", firstOk(fresh), firstOk(anchor)],
    ["npm start → URL printed, restart (ms, median)", urlPrinted(restart), urlPrinted(anchor)]
  ]
  const header = ["figure", "node", "npm start of node -e", "node / anchor"]
  const table = rows.map(([label, node, bare]) => [label, fixed(node), fixed(bare), fixed(node / bare, 2)])
  const widths = header.map((title, i) => Math.max(title.length, ...table.map((row) => row[i].length)))
  const line = (cells: ReadonlyArray<string>) =>
    cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join("  ")
  const restartMs = rows[0][1]
  console.log(
    [
      `${runs} starts of each, taking turns; the web app already built; load average ${loadBefore.toFixed(1)} before, ${loadavg()[0].toFixed(1)} after`,
      "",
      line(header),
      line(widths.map((width) => "-".repeat(width))),
      ...table.map(line),
      "",
      `npm start   aim: < ${aimMs} ms to the first 200   restart median ${fixed(restartMs)} ms (runs: ${restart.map((start) => fixed(start.firstOkMs)).join(", ")}): ${restartMs < aimMs ? "meets it" : "misses it"}`,
      `figures as JSON: ${JSON.stringify({ runs, anchor, fresh, restart, aimMs })}`
    ].join("\n")
  )
  recordVerdict({
    figure: "npm start → first 200 on / (restart)",
    measured: `${fixed(restartMs)} ms median`,
    anchor: `npm start of a bare node -e server ${fixed(rows[0][2])} ms`,
    aim: `< ${aimMs} ms`,
    met: meets(restartMs, (ms) => ms < aimMs)
  })
}

if (import.meta.main) await benchNpmStart()
