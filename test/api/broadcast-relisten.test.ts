/**
 * Two node processes on one PostgreSQL: when the server ends their LISTEN connections (a
 * terminated backend, as a restart or a failover would), each listens again by itself, and an
 * event raised by a request on one process still reaches a tab on the other.
 */
import pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { LiveTab } from "../support/live.ts"
import { run } from "../support/node.ts"
import { asNode, sameBrowserOn, startTwoProcesses, type TwoProcesses } from "../support/processes.ts"
import { until } from "../support/until.ts"

let cluster: TwoProcesses

/** The server processes of the connections now LISTENing on the database. */
const listeners = async (): Promise<ReadonlyArray<number>> => {
  const client = new pg.Client({ connectionString: cluster.databaseUrl })
  await client.connect()
  try {
    const result = await client.query<{ pid: number }>(
      "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%' AND pid <> pg_backend_pid()"
    )
    return result.rows.map((row) => row.pid)
  } finally {
    await client.end()
  }
}

const terminateListeners = async () => {
  const client = new pg.Client({ connectionString: cluster.databaseUrl })
  await client.connect()
  try {
    await client.query(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%' AND pid <> pg_backend_pid()"
    )
  } finally {
    await client.end()
  }
}

beforeAll(async () => {
  cluster = await startTwoProcesses()
}, 120_000)
afterAll(() => cluster?.close())

describe("the listen connection", () => {
  it("comes back after the server ends it, and events raised on one process reach the other again", async () => {
    const before = await until(
      "both processes listening",
      async () => {
        const pids = await listeners()
        return pids.length === 2 ? pids : undefined
      },
      30_000
    )
    await terminateListeners()
    await until(
      "both processes listening again",
      async () => {
        const pids = await listeners()
        return pids.length === 2 && pids.every((pid) => !before.includes(pid)) ? pids : undefined
      },
      30_000
    )
    // PostgreSQL shows the LISTEN before the node has heard back and said so: wait for its words.
    await until(
      "the second process saying it listens again",
      () => cluster.second.output().includes("broadcast: listening again"),
      30_000
    )

    const tab = await LiveTab.open(asNode(cluster.second), sameBrowserOn(cluster.second, cluster.owner))
    const event = await run(
      cluster.owner.api.twinTime.createEvent({
        payload: { title: "After the drop", startAt: "2020-01-01T09:00:00Z", remind: true }
      })
    )
    const onSecond = await tab.nextOf("signal.created", (frame) => frame.signal.id === event.signalId)
    expect(onSecond.signal).toMatchObject({ title: "After the drop" })
    await tab.close()
  }, 90_000)
})
