/**
 * The inbox a page at a time, over real HTTP on a real node: a being with 55 threads (three direct
 * ones with other beings, the rest with its Muse) reads them newest activity first in pages that
 * neither overlap nor leave one out, 50 when it names no page, each titled as it sees it; a thread
 * older than the pages it read is still read by its id; a page out of bounds is refused and
 * changes nothing (not even the Muse thread a first list makes).
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Thread } from "../../extensions/threads/contract/records.ts"
import { noModelSettings } from "../support/models.ts"
import {
  apiError,
  badPageQueries,
  bodyAs,
  registerMember,
  registerOwner,
  run,
  startNode,
  type Registered,
  type TestNode
} from "../support/node.ts"

let node: TestNode
let owner: Registered
let reader: Registered
let others: ReadonlyArray<Registered>
/** The direct thread with `others[0]`, written in last: the newest activity of all. */
let busiest: Thread

const MUSE_THREADS = 52
const ALL = MUSE_THREADS + 3

beforeAll(async () => {
  node = await startNode({ ...noModelSettings })
  owner = await registerOwner(node)
  reader = await registerMember(node, owner.client)
  others = [owner, await registerMember(node, owner.client), await registerMember(node, owner.client)]
  const direct = []
  for (const other of others) {
    direct.push(
      await run(reader.client.api.threads.openThread({ payload: { kind: "direct", withBeingId: other.being.id } }))
    )
  }
  for (let made = 0; made < MUSE_THREADS; made++) {
    await run(reader.client.api.threads.openThread({ payload: { kind: "muse" } }))
  }
  // The oldest thread of all comes first once it has the newest message.
  busiest = direct[0]!
  await run(others[0]!.client.api.threads.postMessage({ path: { id: busiest.id }, payload: { content: "Tea?" } }))
})
afterAll(() => node.close())

const Threads = Schema.Array(Thread)

/** The reader's threads as GET /api/threads answers `query`. */
const listed = async (query: string) => {
  const answer = await reader.client.raw("GET", `/api/threads${query}`)
  expect(answer.status, query).toBe(200)
  return bodyAs(Threads, answer)
}

const activity = (thread: Thread) => thread.lastMessageAt ?? thread.createdAt
const ids = (threads: ReadonlyArray<Thread>) => threads.map((thread) => thread.id)

describe("GET /api/threads, a page at a time", () => {
  it("answers newest activity first in pages that do not overlap and together hold every thread", async () => {
    const all = await listed("?limit=200")
    expect(all).toHaveLength(ALL)
    expect(all[0]).toMatchObject({ id: busiest.id, preview: "Tea?" })
    for (const [at, thread] of all.entries()) {
      if (at === 0) continue
      const before = all[at - 1]!
      // Newest activity first; the id decides between two of one moment.
      expect(
        activity(before) > activity(thread) || (activity(before) === activity(thread) && before.id > thread.id),
        `${before.id} before ${thread.id}`
      ).toBe(true)
    }

    const first = await listed("?limit=30")
    const second = await listed("?limit=30&offset=30")
    expect(first).toHaveLength(30)
    // The last page is shorter than its limit.
    expect(second).toHaveLength(ALL - 30)
    expect(ids(first).filter((id) => ids(second).includes(id))).toEqual([])
    expect([...ids(first), ...ids(second)]).toEqual(ids(all))
    expect(await listed("?limit=30&offset=60")).toEqual([])

    // No page named: the first 50.
    expect(ids(await listed(""))).toEqual(ids(all).slice(0, 50))
  })

  it("titles each thread of a page as the caller sees it, by kind", async () => {
    const direct = await listed("?kind=direct&limit=2")
    const rest = await listed("?kind=direct&limit=2&offset=2")
    expect(direct).toHaveLength(2)
    expect(rest).toHaveLength(1)
    const titles = new Map([...direct, ...rest].map((thread) => [thread.id, thread.title]))
    expect([...titles.values()].sort()).toEqual(others.map((other) => other.being.displayName).sort())
    expect(direct[0]!.id).toBe(busiest.id)
    const muses = await listed("?kind=muse&limit=5&offset=50")
    // 52 made by hand: none made by the list, since the reader had one.
    expect(muses).toHaveLength(MUSE_THREADS - 50)
    expect(muses.every((thread) => thread.kind === "muse" && thread.title === "Muse")).toBe(true)
  })

  it("reads a thread older than the pages read by its id, and another's as missing", async () => {
    const all = await listed("?limit=200")
    const oldest = all[ALL - 1]!
    expect(ids(await listed(""))).not.toContain(oldest.id)
    expect(await run(reader.client.api.threads.getThread({ path: { id: oldest.id } }))).toEqual(oldest)
    const [theirs] = await run(
      owner.client.api.threads.listThreads({ urlParams: { kind: "muse", limit: 1, offset: 0 } })
    )
    const answer = await reader.client.raw("GET", `/api/threads/${theirs!.id}`)
    expect([answer.status, apiError(answer).error]).toEqual([404, "thread_not_found"])
  })

  it("refuses a page out of bounds or not a number, and changes nothing", async () => {
    const fresh = await registerMember(node, owner.client)
    const threadsOf = (beingId: string) =>
      node.runtime.runPromise(
        Effect.flatMap(
          SqlClient.SqlClient,
          (sql) => sql<{ id: string }>`SELECT thread_id AS id FROM thread_participants WHERE being_id = ${beingId}`
        )
      )
    for (const query of [...badPageQueries, "kind=muse&limit=0"]) {
      const answer = await fresh.client.raw("GET", `/api/threads?${query}`)
      expect([answer.status, apiError(answer).error], query).toEqual([400, "invalid_request"])
    }
    // A first list makes the Muse thread; a refused one did not.
    expect(await threadsOf(fresh.being.id)).toEqual([])
    const before = await listed("?limit=200")
    for (const query of badPageQueries) {
      expect((await reader.client.raw("GET", `/api/threads?${query}`)).status, query).toBe(400)
    }
    expect(await listed("?limit=200")).toEqual(before)
  })
})
