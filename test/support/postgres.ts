/**
 * A real, throwaway PostgreSQL for tests: the node's own way of running one (host/postgres-server.ts:
 * Debian's server, installed by test/run.ts), a fresh cluster in a temp folder on a free loopback
 * port, fsync off since nothing in it must outlive the test. Each test file gets its own cluster and
 * databases with random names; everything is stopped and removed at the end.
 */
import { randomBytes } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import {
  ensureDatabase,
  initCluster,
  postgresInstalled,
  postgresInstallHint,
  startServer,
  stopServer
} from "../../host/postgres-server.ts"
import { freePort } from "./free-port.ts"

export interface TestPostgres {
  readonly port: number
  /** A fresh, empty database of the cluster; its URL (trust auth on loopback, no password). */
  readonly createDatabase: () => Promise<string>
  readonly stop: () => void
}

/** Starts a cluster of its own; `stop` removes it. */
export const startPostgres = async (): Promise<TestPostgres> => {
  if (!postgresInstalled()) {
    throw new Error(
      `The PostgreSQL tests need Debian's postgresql package: ${postgresInstallHint} (npm test installs it).`
    )
  }
  const folder = mkdtempSync(join(tmpdir(), "pg-test-"))
  const port = await freePort()
  try {
    initCluster(folder, { fast: true })
    startServer(folder, port, { fast: true })
  } catch (error) {
    // A cluster that did not start leaves nothing behind (its log goes with it: the error has stderr).
    rmSync(folder, { recursive: true, force: true })
    throw error
  }
  let stopped = false
  return {
    port,
    createDatabase: () => ensureDatabase(port, `test_${randomBytes(6).toString("hex")}`),
    stop: () => {
      if (stopped) return
      stopped = true
      try {
        stopServer(folder, "immediate")
      } finally {
        rmSync(folder, { recursive: true, force: true })
      }
    }
  }
}
