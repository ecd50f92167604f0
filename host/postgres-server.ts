/**
 * The one way we run a PostgreSQL server of our own: Debian's PostgreSQL 15 binaries, a cluster
 * (initdb) in a folder we name, listening on loopback at a port we name, its socket in that folder
 * too. `npm run cluster:local` keeps one under data/ between starts; the tests make a throwaway one
 * (test/support/postgres.ts). PostgreSQL refuses to run as root, so as root the server runs as the
 * `postgres` system user, which then owns the folder.
 */
import { execFileSync } from "node:child_process"
import { chownSync, existsSync, mkdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import pg from "pg"

/** Debian's PostgreSQL 15; POSTGRES_BIN_DIR names another server's binaries (another version, another system). */
export const postgresBinDir = process.env.POSTGRES_BIN_DIR ?? "/usr/lib/postgresql/15/bin"

/** What to run when the binaries are missing; said in one line by whoever needs them. */
export const postgresInstallHint = "apt-get install postgresql"

export const postgresInstalled = (): boolean =>
  existsSync(join(postgresBinDir, "initdb")) && existsSync(join(postgresBinDir, "pg_ctl"))

/** The command as the user the server may run as: `postgres` when we are root, else ourselves. */
const asServerUser = (command: string, args: ReadonlyArray<string>): [string, Array<string>] =>
  process.getuid?.() === 0 ? ["runuser", ["-u", "postgres", "--", command, ...args]] : [command, [...args]]

const run = (command: string, args: ReadonlyArray<string>): string => {
  const [file, argv] = asServerUser(join(postgresBinDir, command), args)
  return execFileSync(file, argv, { stdio: ["ignore", "pipe", "pipe"], encoding: "utf8" })
}

/** Makes the folder (and its parents) and, as root, hands it to the server's user. */
export const serverFolder = (folder: string): string => {
  mkdirSync(folder, { recursive: true })
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim())
    const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim())
    chownSync(folder, uid, gid)
    // A folder under /root, say: the server's user cannot reach it however it is owned.
    try {
      execFileSync("runuser", ["-u", "postgres", "--", "test", "-w", folder], { stdio: "ignore" })
    } catch {
      throw new Error(
        `PostgreSQL runs as the postgres user, which cannot reach ${folder}: let it through the folders above (chmod o+x) or choose another folder`
      )
    }
  }
  return folder
}

/** The cluster's data directory inside a server folder. */
const dataOf = (folder: string) => join(folder, "data")

/** Whether the folder already holds a cluster made by `initCluster`. */
export const clusterExists = (folder: string): boolean => existsSync(join(dataOf(folder), "PG_VERSION"))

/**
 * initdb into `<folder>/data`: user `postgres`, trust on loopback and the socket (the server listens
 * on 127.0.0.1 only), UTF-8. `fast` skips the flush to disk, for a cluster nothing must outlive.
 */
export const initCluster = (folder: string, options: { readonly fast?: boolean } = {}): void => {
  serverFolder(folder)
  run("initdb", [
    "-D",
    dataOf(folder),
    "-U",
    "postgres",
    "--auth=trust",
    "-E",
    "UTF8",
    "--locale=C.UTF-8",
    ...(options.fast === true ? ["--no-sync"] : [])
  ])
}

/**
 * Starts the folder's cluster on 127.0.0.1:`port` and waits until it accepts connections. `fast`
 * turns fsync off (a test's server: a crash may lose it all). The log is `<folder>/server.log`.
 */
export const startServer = (folder: string, port: number, options: { readonly fast?: boolean } = {}): void => {
  const settings = [
    "-c listen_addresses=127.0.0.1",
    `-p ${port}`,
    `-k ${folder}`,
    ...(options.fast === true ? ["-c fsync=off", "-c synchronous_commit=off", "-c full_page_writes=off"] : [])
  ].join(" ")
  run("pg_ctl", ["start", "-D", dataOf(folder), "-w", "-s", "-l", join(folder, "server.log"), "-o", settings])
}

/** Whether a server runs on the folder's cluster now (one left by a start that was killed). */
export const serverRunning = (folder: string): boolean => {
  try {
    run("pg_ctl", ["status", "-D", dataOf(folder)])
    return true
  } catch {
    return false
  }
}

/**
 * Stops the folder's server and waits until it is gone. `fast` (the default) ends the sessions and
 * writes a checkpoint; `immediate` just stops, for a server whose data is thrown away next.
 */
export const stopServer = (folder: string, mode: "fast" | "immediate" = "fast"): void => {
  run("pg_ctl", ["stop", "-D", dataOf(folder), "-m", mode, "-w", "-s"])
}

/** The postmaster's pid while it runs (the first line of postmaster.pid). */
export const serverPid = (folder: string): number | undefined => {
  try {
    const text = readFileSync(join(dataOf(folder), "postmaster.pid"), "utf8")
    const pid = Number(text.split("\n")[0])
    return Number.isInteger(pid) && pid > 0 ? pid : undefined
  } catch {
    return undefined
  }
}

/** The URL of a database of the server (trust auth on loopback: no password). */
export const databaseUrlOf = (port: number, database: string): string =>
  `postgres://postgres@127.0.0.1:${port}/${database}`

/** Creates the database unless it exists; `name` is ours (letters, digits, underscores). */
export const ensureDatabase = async (port: number, name: string): Promise<string> => {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a database name of ours: ${name}`)
  const client = new pg.Client({ connectionString: databaseUrlOf(port, "postgres") })
  await client.connect()
  try {
    const found = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name])
    if (found.rowCount === 0) await client.query(`CREATE DATABASE ${name}`)
  } finally {
    await client.end()
  }
  return databaseUrlOf(port, name)
}
