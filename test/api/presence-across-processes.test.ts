/**
 * Presence with two runner processes on one PostgreSQL (issue 16 item 3): a being whose tab is
 * open on one process stays online when the other process restarts (a start sweeps only the rows
 * of processes whose lease lapsed, never a live one's), and when the process holding the tab is
 * killed with SIGKILL, the survivor reads the being offline within the lease time.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { LEASE_MS, LEASE_RENEW_MS } from "../../actors/being/presence-lease.ts"
import { startChildNode, type ChildNode } from "../support/child-node.ts"
import { until } from "../support/until.ts"
import { freePort } from "../support/free-port.ts"
import { LiveTab } from "../support/live.ts"
import { Client, person, run } from "../support/node.ts"
import { startPostgres, type TestPostgres } from "../support/postgres.ts"
import { asNode, sameBrowserOn } from "../support/processes.ts"

let postgres: TestPostgres
let databaseUrl: string
let filesDir: string
let first: ChildNode
let second: ChildNode
let owner: Client
let ownerId: string

const startRunner = async (ownerCode?: string) =>
  startChildNode({
    ...(ownerCode === undefined ? {} : { ownerCode }),
    env: {
      DATABASE_URL: databaseUrl,
      FILES_DIR: filesDir,
      CLUSTER_RUNNER_ADDRESS: `127.0.0.1:${await freePort()}`,
      LLM_LOCAL: "false"
    }
  })

beforeAll(async () => {
  postgres = await startPostgres()
  databaseUrl = await postgres.createDatabase()
  filesDir = mkdtempSync(join(tmpdir(), "presence-files-"))
  // One after the other: the first runs the migrations.
  first = await startRunner()
  second = await startRunner(first.ownerCode)
  owner = new Client(first.url)
  ownerId = (await run(owner.api.authPublic.register({ payload: person(first.ownerCode) }))).being.id
}, 120_000)
afterAll(async () => {
  await second?.close()
  await first?.close()
  postgres?.stop()
  if (filesDir !== undefined) rmSync(filesDir, { recursive: true, force: true })
})

const leases = async (): Promise<number> => {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    return (
      (await client.query("SELECT process_id FROM presence_leases WHERE alive_until > $1", [new Date().toISOString()]))
        .rowCount ?? 0
    )
  } finally {
    await client.end()
  }
}

/** How many beings a process reads online (GET /api/health, `live.beingsOnline`). */
const onlineOn = async (node: ChildNode) => (await run(new Client(node.url).api.health.health())).live.beingsOnline

describe("presence across two runner processes", () => {
  it("keeps a tab's being online when the other process restarts, and reads it offline soon after its own process is killed", async () => {
    const tab = await LiveTab.open(asNode(first), owner)
    await until("the being online on the second process to count 1", async () => (await onlineOn(second)) === 1, 10_000)

    // The second process restarts (a new process, as after a deploy): the first one's socket is still counted.
    await second.close()
    second = await startRunner(first.ownerCode)
    await until("the leases to count 2", async () => (await leases()) === 2, 20_000)
    expect(await onlineOn(second)).toBe(1)
    expect(await onlineOn(first)).toBe(1)
    // The being reads online in the other process's list and page too, not only in its count.
    const throughSecond = sameBrowserOn(second, owner)
    expect((await run(throughSecond.api.beings.getBeing({ path: { id: ownerId } }))).online).toBe(true)
    expect((await run(throughSecond.api.beings.listBeings())).find((being) => being.id === ownerId)?.online).toBe(true)

    // The process holding the tab dies without a word: its lease lapses and the survivor sweeps its rows.
    const killedAt = Date.now()
    expect(await first.kill("SIGKILL")).toBe("SIGKILL")
    expect((await tab.closed).code).toBe(1006)
    // Within the lease and a couple of rounds (slack for this busy machine's event loops).
    await until(
      "the being online on the second process to count 0",
      async () => (await onlineOn(second)) === 0,
      LEASE_MS + 2 * LEASE_RENEW_MS + 8_000
    )
    console.log(`presence: offline ${Date.now() - killedAt} ms after SIGKILL (lease ${LEASE_MS} ms)`)
    expect(await leases()).toBe(1)
  }, 180_000)

  it("counts a stalled process's sockets again once it runs on, though its lapsed lease let them be swept", async () => {
    const third = await startRunner(first.ownerCode)
    try {
      // A handshake made before the live channel is up waits for it (host/live/server.ts).
      const tab = await LiveTab.open(asNode(third), owner)
      await until(
        "the being online on the second process to count 1",
        async () => (await onlineOn(second)) === 1,
        20_000
      )
      // Frozen past its lease (a stalled event loop): the survivor sweeps its rows.
      process.kill(third.pid, "SIGSTOP")
      await until(
        "the being online on the second process to count 0",
        async () => (await onlineOn(second)) === 0,
        LEASE_MS + 2 * LEASE_RENEW_MS + 8_000
      )
      process.kill(third.pid, "SIGCONT")
      // Its next renewal finds the lease lapsed and counts its open sockets again.
      await until(
        "the being online on the second process to count 1",
        async () => (await onlineOn(second)) === 1,
        60_000
      )
      await tab.close()
    } catch (error) {
      // What the two processes said is where a failure here is explained (a session check that failed, a lease).
      console.log(
        `The stalled process said:\n${third.output().slice(-8000)}\nThe other:\n${second.output().slice(-4000)}`
      )
      throw error
    } finally {
      process.kill(third.pid, "SIGCONT")
      await third.close()
    }
  }, 180_000)
})
