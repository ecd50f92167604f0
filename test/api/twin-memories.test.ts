/**
 * The twin's memories over real HTTP on a real node whose embed tier is a scripted model server
 * that embeds by meaning (test/support/meanings.ts): search by words and by meaning fused, add,
 * delete (row, word entry and vector), strictly per being, and every refusal.
 */
import * as Effect from "effect/Effect"
import * as SqlClient from "@effect/sql/SqlClient"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { memorySearchHeader } from "../../extensions/twin/contract/records.ts"
import { LiveTab } from "../support/live.ts"
import { embedByMeaning } from "../support/meanings.ts"
import { noModelSettings, tierSettings } from "../support/models.ts"
import { expectOffsetPages } from "../support/offset-pages.ts"
import { startOpenAiServer, type OpenAiServer } from "../support/openai-server.ts"
import { Health } from "../../extensions/health/contract/api.ts"
import {
  apiError,
  bodyAs,
  refused,
  registerMember,
  registerOwner,
  run,
  startNode,
  type Registered,
  type TestNode
} from "../support/node.ts"

const meanings = [
  ["dog", "dogs", "retriever", "puppy", "canine"],
  ["tea", "chai", "oolong"],
  ["birthday", "anniversary"]
]

let models: OpenAiServer
let node: TestNode
let owner: Registered

beforeAll(async () => {
  models = await startOpenAiServer()
  models.handle("embeddings", embedByMeaning(meanings))
  node = await startNode({
    ...noModelSettings,
    llmTiers: tierSettings({ embed: { baseUrl: models.baseUrl, model: "meaning-embed" } })
  })
  owner = await registerOwner(node)
})
afterAll(async () => {
  await node.close()
  await models.close()
})

const remember = (
  who: Registered,
  content: string,
  extra: { kind?: "fact" | "preference" | "episode"; importance?: number; tags?: Array<string> } = {}
) => run(who.client.api.twin.createMemory({ payload: { content, ...extra } }))

const search = (who: Registered, q: string, extra: Record<string, string> = {}) =>
  who.client.raw("GET", `/api/twin/memories?${new URLSearchParams({ q, ...extra })}`)

const contents = (answer: { readonly body: unknown }) =>
  (answer.body as Array<{ content: string }>).map((memory) => memory.content)

/** Rows left anywhere for a memory: its row, its FTS entry, its vector. */
const traces = (id: string) =>
  node.runtime.runPromise(
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const rows = yield* sql<{ seq: number }>`SELECT seq FROM twin_memories WHERE id = ${id}`
      const words = yield* sql<{
        n: number
      }>`SELECT COUNT(*) AS n FROM twin_memories_fts WHERE twin_memories_fts MATCH 'zanzibar'`
      const vectors = yield* sql<{ n: number }>`SELECT COUNT(*) AS n FROM twin_memory_vectors_515`
      return { rows: rows.length, words: words[0]!.n, vectors: vectors[0]!.n }
    })
  )

describe("storing and searching", () => {
  it("stores a memory with the defaults and answers it; memory.created reaches the being's tabs", async () => {
    const tab = await LiveTab.open(node, owner.client)
    const memory = await remember(owner, "Ada keeps bees on the roof.")
    expect(memory).toMatchObject({
      kind: "fact",
      content: "Ada keeps bees on the roof.",
      importance: 0.5,
      tags: [],
      source: "manual"
    })
    expect(memory.id).toMatch(/^[0-9a-f-]{36}$/)
    const created = await tab.next((frame) => frame.type === "memory.created")
    expect(created).toEqual({ type: "memory.created", memory })
    tab.close()
  })

  it("finds a memory by meaning when the query shares no word with it, and ranks a both-ways match first", async () => {
    const dog = await remember(owner, "Ada walks her golden retriever every morning.", { kind: "episode" })
    await remember(owner, "Ada drinks oolong in the afternoon.", { kind: "preference" })
    const answer = await search(owner, "puppy")
    expect(answer.status).toBe(200)
    expect(answer.headers[memorySearchHeader]).toBe("hybrid")
    expect(contents(answer)).toEqual([dog.content])

    const both = await remember(owner, "The puppy chewed the sofa.")
    expect(contents(await search(owner, "puppy")).slice(0, 2)).toEqual([both.content, dog.content])
  })

  it("finds by words alone what has no meaning in common, and filters by kind and limit", async () => {
    expect(contents(await search(owner, "bees roof"))).toEqual(["Ada keeps bees on the roof."])
    expect(contents(await search(owner, "tea", { kind: "fact" }))).toEqual([])
    expect(contents(await search(owner, "tea", { kind: "preference" }))).toEqual([
      "Ada drinks oolong in the afternoon."
    ])
    const newest = await run(owner.client.api.twin.searchMemories({ urlParams: { limit: 2, offset: 0 } }))
    expect(newest.map((memory) => memory.content)).toEqual([
      "The puppy chewed the sofa.",
      "Ada drinks oolong in the afternoon."
    ])
  })

  it("keeps memories strictly per being: another being finds none of them and cannot delete one (404)", async () => {
    const member = await registerMember(node, owner.client)
    const secret = await remember(owner, "The safe's code is in the blue book.")
    expect(contents(await search(member, "safe code"))).toEqual([])
    expect(contents(await search(member, "puppy"))).toEqual([])
    expect(await run(member.client.api.twin.searchMemories({ urlParams: { offset: 0 } }))).toEqual([])
    const refusal = await refused(member.client.api.twin.deleteMemory({ path: { id: secret.id } }))
    expect(refusal).toMatchObject({ status: 404, body: { error: "not_found" } })
    expect(contents(await search(owner, "safe code"))).toEqual([secret.content])
  })

  it("searches a being that has no memories without asking the embed tier (the Muse recalls on every reply)", async () => {
    const member = await registerMember(node, owner.client)
    const asked = models.requestsFor("embeddings").length
    const answer = await search(member, "puppy")
    expect(answer.status).toBe(200)
    expect(answer.headers[memorySearchHeader]).toBe("hybrid")
    expect(contents(answer)).toEqual([])
    expect(models.requestsFor("embeddings").length).toBe(asked)
    await remember(member, "Bo walks the retriever at noon.")
    const embedded = models.requestsFor("embeddings").length
    expect(contents(await search(member, "canine"))).toEqual(["Bo walks the retriever at noon."])
    expect(models.requestsFor("embeddings").length).toBe(embedded + 1)
  })

  it("deletes the row, its word entry and its vector: found neither by words nor by meaning", async () => {
    const memory = await remember(owner, "Zanzibar trip for the anniversary.")
    expect(await traces(memory.id)).toEqual({ rows: 1, words: 1, vectors: expect.any(Number) })
    const before = (await traces(memory.id)).vectors
    expect(await run(owner.client.api.twin.deleteMemory({ path: { id: memory.id } }))).toEqual({ ok: true })
    expect(await traces(memory.id)).toEqual({ rows: 0, words: 0, vectors: before - 1 })
    expect(contents(await search(owner, "zanzibar"))).toEqual([])
    expect(contents(await search(owner, "birthday"))).toEqual([])
    expect(await refused(owner.client.api.twin.deleteMemory({ path: { id: memory.id } }))).toMatchObject({
      status: 404
    })
  })

  it("pages by `offset`, the newest or the fused ranking: two pages are the list read at once; a bad offset is 400", async () => {
    const member = await registerMember(node, owner.client)
    const stored = []
    for (const [content, importance] of [
      ["Bo's puppy sleeps all day.", 0.9],
      ["Bo's retriever swims.", 0.8],
      ["The puppy met a canine friend.", 0.7],
      ["Bo feeds the dogs at six.", 0.6],
      ["A puppy class on Fridays.", 0.5]
    ] as const) {
      stored.push(await remember(member, content, { importance }))
    }
    const newest = await expectOffsetPages(member.client, "/api/twin/memories", 2, 5)
    expect(newest).toEqual(
      stored
        .map((memory) => memory.id)
        .reverse()
        .slice(0, 4)
    )
    // Ranked: every memory is found by meaning, the three with the word "puppy" by words as well.
    const ranked = await expectOffsetPages(member.client, "/api/twin/memories?q=puppy", 2, 5)
    const ranking = await search(member, "puppy", { limit: "100" })
    expect(ranking.headers[memorySearchHeader]).toBe("hybrid")
    expect((ranking.body as Array<{ id: string }>).map((memory) => memory.id).slice(0, 4)).toEqual(ranked)
    expect(contents(ranking).slice(0, 3).sort()).toEqual([
      "A puppy class on Fridays.",
      "Bo's puppy sleeps all day.",
      "The puppy met a canine friend."
    ])
  })
})

describe("embeddings coverage in /api/health", () => {
  it("is whole on a loopback embed tier, and degraded while a memory could not be embedded", async () => {
    const health = async () => bodyAs(Health, await owner.client.raw("GET", "/api/health")).embeddings
    const whole = await health()
    expect(whole).toMatchObject({ available: true, leavesDevice: false, degraded: false, note: null })
    expect(whole.embedded).toBe(whole.total)

    models.script("embeddings", { error: { status: 503, message: "loading model" } })
    const memory = await remember(owner, "The boiler was serviced in March.")
    expect(await health()).toMatchObject({ embedded: whole.total, total: whole.total + 1, degraded: true })
    // Found by its words meanwhile; the backfill (test/unit/twin/memory-backfill.test.ts) embeds it later.
    expect(contents(await search(owner, "boiler"))).toEqual([memory.content])
  })
})

describe("refusals", () => {
  it("refuses a malformed id, an unknown kind, a limit out of range and a bad body with 400, changing nothing", async () => {
    const before = await run(owner.client.api.twin.searchMemories({ urlParams: { limit: 100, offset: 0 } }))
    for (const [method, path, body] of [
      ["DELETE", "/api/twin/memories/not-an-id", undefined],
      ["GET", "/api/twin/memories?kind=rumour", undefined],
      ["GET", "/api/twin/memories?limit=0", undefined],
      ["GET", "/api/twin/memories?limit=101", undefined],
      ["GET", "/api/twin/memories?limit=ten", undefined],
      ["POST", "/api/twin/memories", { content: "  " }],
      ["POST", "/api/twin/memories", { content: "x".repeat(4001) }],
      ["POST", "/api/twin/memories", { content: "x", importance: 1.5 }],
      ["POST", "/api/twin/memories", { content: "x", kind: "rumour" }],
      ["POST", "/api/twin/memories", { content: "x", tags: [""] }]
    ] as const) {
      const answer = await owner.client.raw(method, path, body)
      expect({ path, status: answer.status, error: apiError(answer).error }).toEqual({
        path,
        status: 400,
        error: "invalid_request"
      })
    }
    expect(await run(owner.client.api.twin.searchMemories({ urlParams: { limit: 100, offset: 0 } }))).toEqual(before)
  })

  it("answers 401 without a session", async () => {
    const stranger = await fetch(`${node.url}/api/twin/memories?q=tea`)
    expect(stranger.status).toBe(401)
  })
})
