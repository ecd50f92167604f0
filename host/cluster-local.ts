/**
 * `npm run cluster:local`: one node as a cluster of two processes on this machine, to try what
 * docs/operations.md "Scale-out" describes. A PostgreSQL 15 of its own under `CLUSTER_LOCAL_DIR`
 * (default data/cluster: `postgres/`, made by initdb at the first start and reused after), two
 * runners (host/bundled-start.ts) over its database `node`, each with its own CLUSTER_RUNNER_ADDRESS, HTTP
 * port (PORT and PORT + 1, default 8787 and 8788; PORT=0 takes free ones) and DATA_DIR
 * (`runner-1/`, `runner-2/`), sharing one FILES_DIR (`files/`). Ctrl-C or SIGTERM stops both
 * runners, then PostgreSQL. Runner 1 starts alone first: it runs the migrations and makes the owner
 * code, so runner 2 finds both done (two first starts at once would race for them).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join, resolve } from "node:path"
import pg from "pg"
import { ensureUiBuild } from "../ui/build.ts"
import { startRunner, untilHealthy, type LocalRunner } from "./cluster-local-runner.ts"
import { freePort, portFree } from "./free-port.ts"
import {
  clusterExists,
  ensureDatabase,
  initCluster,
  postgresBinDir,
  postgresInstalled,
  postgresInstallHint,
  serverRunning,
  startServer,
  stopServer
} from "./postgres-server.ts"

const root = resolve(process.env.CLUSTER_LOCAL_DIR ?? join("data", "cluster"))
const pgFolder = join(root, "postgres")
const stateFile = join(root, "cluster.json")
const firstPort = Number(process.env.PORT ?? 8787)
const say = (line: string) => console.log(`cluster: ${line}`)

if (!postgresInstalled()) {
  console.error(
    `cluster: PostgreSQL is not installed (no initdb in ${postgresBinDir}); install it with: ${postgresInstallHint}`
  )
  process.exit(1)
}
if (!Number.isInteger(firstPort) || firstPort < 0 || firstPort > 65534) {
  console.error("cluster: PORT is the first runner's HTTP port (the second takes the next one), or 0 for free ones")
  process.exit(1)
}

/** The PostgreSQL port of the last start, taken again when free so a client's saved URL still works. */
const lastPort = (): number | undefined => {
  try {
    const port = (JSON.parse(readFileSync(stateFile, "utf8")) as { postgresPort?: unknown }).postgresPort
    return typeof port === "number" ? port : undefined
  } catch {
    return undefined
  }
}

const runners: Array<LocalRunner> = []
let postgresStarted = false
let stopping: Promise<void> | undefined

/** Stops the runners (SIGTERM, then SIGKILL after 10 s), then PostgreSQL; once. */
const stopAll = (): Promise<void> =>
  (stopping ??= (async () => {
    say("stopping the runners and PostgreSQL")
    for (const runner of runners) runner.signal("SIGTERM")
    const killLate = setTimeout(() => {
      for (const runner of runners) runner.signal("SIGKILL")
    }, 10_000)
    await Promise.all(runners.map((runner) => runner.exited))
    clearTimeout(killLate)
    if (postgresStarted) stopServer(pgFolder, "fast")
    say("stopped")
  })())

const shutdown = (code: number) => void stopAll().finally(() => process.exit(code))
process.on("SIGINT", () => shutdown(0))
process.on("SIGTERM", () => shutdown(0))
// Whatever ends the script, its runners (in process groups of their own) must not outlive it.
process.on("exit", () => {
  for (const runner of runners) runner.signal("SIGKILL")
})

const main = async () => {
  mkdirSync(root, { recursive: true })
  if (clusterExists(pgFolder)) {
    say(`reusing PostgreSQL in ${pgFolder}`)
    if (serverRunning(pgFolder)) {
      say("a PostgreSQL left running by an earlier start: stopping it first")
      stopServer(pgFolder, "fast")
    }
  } else {
    say(`initialising PostgreSQL in ${pgFolder} (first start, a few seconds)`)
    initCluster(pgFolder)
  }
  const last = lastPort()
  const pgPort = last !== undefined && (await portFree(last)) ? last : await freePort()
  say(`starting PostgreSQL on 127.0.0.1:${pgPort}`)
  startServer(pgFolder, pgPort)
  postgresStarted = true
  writeFileSync(stateFile, `${JSON.stringify({ postgresPort: pgPort })}\n`)
  const databaseUrl = await ensureDatabase(pgPort, "node")
  const filesDir = join(root, "files")
  mkdirSync(filesDir, { recursive: true })
  console.log((await ensureUiBuild()).line)

  const ownerLines: Array<string> = []
  const urls: Array<string> = []
  for (const index of [1, 2]) {
    const name = `runner-${index}`
    say(`starting ${name}`)
    const runner = startRunner(
      name,
      {
        DATABASE_URL: databaseUrl,
        CLUSTER_RUNNER_ADDRESS: `127.0.0.1:${await freePort()}`,
        PORT: String(firstPort === 0 ? 0 : firstPort + index - 1),
        DATA_DIR: join(root, name),
        FILES_DIR: filesDir
      },
      (line) => {
        if (ownerLines.length < 2 && !ownerLines.some((held) => held.split(":")[0] === line.split(":")[0]))
          ownerLines.push(line)
      }
    )
    runners.push(runner)
    void runner.exited.then(() => {
      if (stopping !== undefined) return
      const left = runners.filter((other) => other.running())
      if (left.length === 0) return shutdown(1)
      say(`${name} exited; ${left.map((other) => other.name).join(", ")} goes on serving (Ctrl-C stops it)`)
    })
    const url = await runner.listening
    await untilHealthy(runner, url, 120_000)
    urls.push(url)
  }
  // A runner answers /api/health a moment before it prints the owner code (after its services are
  // up): on a busy machine that moment can outlast runner 2's start. With no owner yet, wait for it.
  if (ownerLines.length < 2 && !(await ownerRegistered(databaseUrl))) {
    const deadline = Date.now() + 60_000
    while (ownerLines.length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50))
  }
  say(`up: two runners over one PostgreSQL (${root}), DATABASE_URL=${databaseUrl}`)
  urls.forEach((url, index) => {
    console.log(`Runner ${index + 1}: ${url}`)
  })
  for (const line of ownerLines) console.log(line)
  say("Ctrl-C stops both runners and PostgreSQL")
}

/** Whether the cluster's node has its owner (then no runner prints an owner code). */
const ownerRegistered = async (databaseUrl: string): Promise<boolean> => {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    return ((await client.query("SELECT 1 FROM beings WHERE is_owner = 1")).rowCount ?? 0) > 0
  } finally {
    await client.end()
  }
}

main().catch((error: unknown) => {
  console.error(`cluster: ${error instanceof Error ? error.message : String(error)}`)
  if (existsSync(join(pgFolder, "server.log")))
    console.error(`cluster: PostgreSQL's log: ${join(pgFolder, "server.log")}`)
  shutdown(1)
})
