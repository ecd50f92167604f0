/**
 * A real, throwaway PostgreSQL for tests: Debian's server (installed by test/run.ts), a fresh
 * cluster in a temp folder on a free loopback port, its socket in that folder too, fsync off
 * since nothing in it must outlive the test. Each test file gets its own cluster and databases
 * with random names; everything is stopped and removed at the end. PostgreSQL refuses to run as
 * root, so a root test run (CI) runs the server as the `postgres` system user, owning the folder.
 */
import { execFileSync } from "node:child_process"
import { randomBytes } from "node:crypto"
import { chownSync, existsSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import pg from "pg"
import { freePort } from "./free-port.ts"

const bin = "/usr/lib/postgresql/15/bin"

/** The command as the user the server may run as: `postgres` when we are root, else ourselves. */
const asServerUser = (command: string, args: ReadonlyArray<string>): [string, Array<string>] =>
  process.getuid?.() === 0 ? ["runuser", ["-u", "postgres", "--", command, ...args]] : [command, [...args]]

const run = (command: string, args: ReadonlyArray<string>) => {
  const [file, argv] = asServerUser(command, args)
  execFileSync(file, argv, { stdio: ["ignore", "pipe", "pipe"] })
}

export interface TestPostgres {
  readonly port: number
  /** A fresh, empty database of the cluster; its URL (trust auth on loopback, no password). */
  readonly createDatabase: () => Promise<string>
  readonly stop: () => void
}

/** Starts a cluster of its own; `stop` removes it. */
export const startPostgres = async (): Promise<TestPostgres> => {
  if (!existsSync(join(bin, "initdb"))) {
    throw new Error("The PostgreSQL tests need Debian's postgresql package: apt-get install postgresql (npm test installs it).")
  }
  const folder = mkdtempSync(join(tmpdir(), "pg-test-"))
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim())
    const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim())
    chownSync(folder, uid, gid)
  }
  const data = join(folder, "data")
  const port = await freePort()
  try {
    run(join(bin, "initdb"), ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C.UTF-8", "--no-sync"])
    const options = [
      "-c listen_addresses=127.0.0.1", `-p ${port}`, `-k ${folder}`,
      "-c fsync=off", "-c synchronous_commit=off", "-c full_page_writes=off"
    ].join(" ")
    run(join(bin, "pg_ctl"), ["start", "-D", data, "-w", "-s", "-l", join(folder, "server.log"), "-o", options])
  } catch (error) {
    // A cluster that did not start leaves nothing behind (its log goes with it: the error has stderr).
    rmSync(folder, { recursive: true, force: true })
    throw error
  }
  const baseUrl = `postgres://postgres@127.0.0.1:${port}`
  let stopped = false
  return {
    port,
    createDatabase: async () => {
      const name = `test_${randomBytes(6).toString("hex")}`
      const client = new pg.Client({ connectionString: `${baseUrl}/postgres` })
      await client.connect()
      try {
        await client.query(`CREATE DATABASE ${name}`)
      } finally {
        await client.end()
      }
      return `${baseUrl}/${name}`
    },
    stop: () => {
      if (stopped) return
      stopped = true
      try {
        run(join(bin, "pg_ctl"), ["stop", "-D", data, "-m", "immediate", "-s"])
      } finally {
        rmSync(folder, { recursive: true, force: true })
      }
    }
  }
}
