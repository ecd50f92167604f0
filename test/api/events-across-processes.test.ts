/**
 * Two node processes on one PostgreSQL, as the processes of a cluster: a tab connected to one
 * receives the events raised by a request on the other, once, however large the event; a logout
 * on one process ends the session on the other at once, and closes its sockets there.
 * Each process is a socket runner at its own CLUSTER_RUNNER_ADDRESS (two SingleRunners over one
 * PostgreSQL fight over the shards, and the live handshake tells the being's entity).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startChildNode, type ChildNode } from "../support/child-node.ts"
import { freePort } from "../support/free-port.ts"
import { LiveTab } from "../support/live.ts"
import { Client, person, run } from "../support/node.ts"
import { startPostgres, type TestPostgres } from "../support/postgres.ts"
import { asNode, sameBrowserOn } from "../support/processes.ts"
import { until } from "../support/until.ts"

let postgres: TestPostgres
let first: ChildNode
let second: ChildNode
let owner: Client
let registration: ReturnType<typeof person>

/** A reminder whose time has passed: delivered at once as `signal.created` by the process that took the request. */
const remindNow = (client: Client, title: string) =>
  run(client.api.twinTime.createEvent({ payload: { title, startAt: "2020-01-01T09:00:00Z", remind: true } }))

beforeAll(async () => {
  postgres = await startPostgres()
  const DATABASE_URL = await postgres.createDatabase()
  const runnerAt = async () => ({ DATABASE_URL, CLUSTER_RUNNER_ADDRESS: `127.0.0.1:${await freePort()}` })
  // One after the other: the first runs the migrations.
  first = await startChildNode({ env: await runnerAt() })
  second = await startChildNode({ env: await runnerAt(), ownerCode: first.ownerCode })
  owner = new Client(first.url)
  registration = person(first.ownerCode)
  await run(owner.api.authPublic.register({ payload: registration }))
}, 120_000)
afterAll(async () => {
  await second?.close()
  await first?.close()
  postgres?.stop()
})

describe("events across processes", () => {
  it("delivers an event raised by a request on one process to a tab on the other, once on each", async () => {
    const tabOnFirst = await LiveTab.open(asNode(first), owner)
    const tabOnSecond = await LiveTab.open(asNode(second), sameBrowserOn(second, owner))
    const event = await remindNow(owner, "Raised on the first")
    const onSecond = await tabOnSecond.nextOf("signal.created", (frame) => frame.signal.id === event.signalId)
    expect(onSecond.signal).toMatchObject({ title: "Raised on the first", kind: "reminder" })
    await tabOnFirst.nextOf("signal.created", (frame) => frame.signal.id === event.signalId)

    // A later event raised on the second process comes to the first: by then, any echo of the first would have come
    // too.
    const back = await remindNow(sameBrowserOn(second, owner), "Raised on the second")
    await tabOnFirst.nextOf("signal.created", (frame) => frame.signal.id === back.signalId)
    await tabOnSecond.nextOf("signal.created", (frame) => frame.signal.id === back.signalId)
    // Each was taken once above; a second copy of either (an echo) would still be waiting.
    const left = (tab: LiveTab, id: string | null) =>
      tab.frames.filter((frame) => frame.type === "signal.created" && frame.signal.id === id).length
    expect([left(tabOnFirst, event.signalId), left(tabOnSecond, event.signalId)]).toEqual([0, 0])
    expect([left(tabOnFirst, back.signalId), left(tabOnSecond, back.signalId)]).toEqual([0, 0])
    await tabOnFirst.close()
    await tabOnSecond.close()
  })

  it("carries an event larger than a NOTIFY payload (8,000 bytes) whole", async () => {
    const tabOnSecond = await LiveTab.open(asNode(second), sameBrowserOn(second, owner))
    // 4,000 euro signs: 12,000 bytes of UTF-8 in the memory.created event.
    const content = "€".repeat(4000)
    const memory = await run(owner.api.twin.createMemory({ payload: { content } }))
    const onSecond = await tabOnSecond.nextOf("memory.created", (frame) => frame.memory.id === memory.id)
    expect(onSecond.memory.content).toBe(content)
    await tabOnSecond.close()
  })

  it("ends on the other process at once a session logged out on one, and closes its sockets there", async () => {
    const browser = new Client(first.url)
    await run(browser.api.authPublic.login({ payload: { email: registration.email, password: registration.password } }))
    const onSecond = sameBrowserOn(second, browser)
    await run(onSecond.api.auth.me()) // kept in the second process's session cache now
    const tab = await LiveTab.open(asNode(second), onSecond)
    await run(browser.api.auth.logout())
    expect((await onSecond.raw("GET", "/api/auth/me")).status).toBe(401)
    expect((await tab.closed).code).toBe(4001)
    // The owner's other session is untouched on both.
    expect((await sameBrowserOn(second, owner).raw("GET", "/api/auth/me")).status).toBe(200)
  })

  it("shows on the other process a change to a being made on one, without a restart", async () => {
    const onSecond = sameBrowserOn(second, owner)
    await run(onSecond.api.auth.me()) // kept in the second process's session cache now
    await run(owner.api.beings.patchMe({ payload: { displayName: "Renamed on the first" } }))
    // The change goes out with its commit, so the answer and the second process's cache drop race (docs/decisions.md,
    // "Order and waiting"): a busy machine showed the old name to a read made right after the answer.
    await until(
      "the rename to show on the second process",
      async () => (await run(onSecond.api.auth.me())).being.displayName === "Renamed on the first",
      10_000,
      20
    )
  })
})
