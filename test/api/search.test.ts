/**
 * GET /api/search, the omnibar's search, over real HTTP with no model bound: the caller's own
 * projects and memories (by words), the market's active listings, each group at most five; a
 * query of no words or over 200 characters is a 400, no session a 401.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { listingInput, listingUpdate } from "./market-support.ts"
import { registerMember, registerOwner, run, startNode, type Registered, type TestNode } from "../support/node.ts"

let node: TestNode
let owner: Registered
let member: Registered

beforeAll(async () => {
  node = await startNode()
  owner = await registerOwner(node)
  member = await registerMember(node, owner.client)
})
afterAll(() => node.close())

const search = (who: Registered, q: string) => who.client.api.search.search({ urlParams: { q } })

describe("GET /api/search", () => {
  it("finds the caller's own projects and memories and active listings, never another being's", async () => {
    const mine = await run(
      member.client.api.studioProjects.createProject({ payload: { brief: "Write a guide to marmalade making" } })
    )
    await run(
      owner.client.api.studioProjects.createProject({ payload: { brief: "Write the owner's marmalade ledger" } })
    )
    await run(
      member.client.api.twin.createMemory({
        payload: { kind: "fact", content: "Grandmother's marmalade used Seville oranges", importance: 0.5, tags: [] }
      })
    )
    await run(
      owner.client.api.twin.createMemory({
        payload: { kind: "fact", content: "The owner hides a marmalade secret", importance: 0.5, tags: [] }
      })
    )
    const active = await run(
      owner.client.api.market.publishListing({
        payload: listingInput({ kind: "service", title: "Marmalade tasting", description: "A jar review." })
      })
    )
    const paused = await run(
      owner.client.api.market.publishListing({
        payload: listingInput({ kind: "service", title: "Marmalade workshop", description: "Hands on." })
      })
    )
    await run(
      owner.client.api.market.updateListing({
        path: { id: paused.id },
        payload: listingUpdate({
          kind: "service",
          title: paused.title,
          description: paused.description,
          status: "paused"
        })
      })
    )

    const found = await run(search(member, "marmalade"))
    expect(found.projects.map((project) => project.id)).toEqual([mine.id])
    expect(found.memories.map((memory) => memory.content)).toEqual(["Grandmother's marmalade used Seville oranges"])
    expect(found.listings.map((listing) => listing.id)).toEqual([active.id])
    // Words, not whole phrases; no other being's records.
    expect((await run(search(member, "seville"))).memories).toHaveLength(1)
    expect(JSON.stringify(await run(search(member, "secret ledger")))).not.toMatch(/secret|ledger/)
  })

  it("answers at most five of each group", async () => {
    for (let index = 0; index < 7; index++) {
      await run(
        member.client.api.twin.createMemory({
          payload: { kind: "fact", content: `Quince note ${index}`, importance: 0.5, tags: [] }
        })
      )
    }
    expect((await run(search(member, "quince"))).memories).toHaveLength(5)
  })

  it("matches `%`, `_` and `\\` in a word as themselves, not as LIKE's wildcards", async () => {
    const create = (brief: string) => run(member.client.api.studioProjects.createProject({ payload: { brief } }))
    const percent = await create("Bake the 100% rye loaf")
    await create("Bake the 1000 rye loaf")
    const underscore = await create("Rename the snake_case fields")
    await create("Rename the snakeXcase fields")
    const backslash = await create("Tidy the c:\\drafts folder")
    await create("Tidy the c:drafts folder")
    const ids = async (q: string) => (await run(search(member, q))).projects.map((project) => project.id)
    expect(await ids("100%")).toEqual([percent.id])
    expect(await ids("SNAKE_CASE")).toEqual([underscore.id])
    expect(await ids("c:\\drafts")).toEqual([backslash.id])
  })

  it("answers at most five of many matching projects, newest first", async () => {
    const created = []
    for (let index = 0; index < 8; index++) {
      created.push(
        await run(member.client.api.studioProjects.createProject({ payload: { brief: `Damson batch ${index}` } }))
      )
    }
    const found = (await run(search(member, "damson batch"))).projects
    expect(found).toHaveLength(5)
    const createdAt = new Map(created.map((project) => [project.id, project.createdAt]))
    const times = found.map((project) => createdAt.get(project.id)!)
    // The five newest: none older than any left out, in order.
    expect(times).toEqual([...times].sort().reverse())
    const left = created
      .filter((project) => !found.some((kept) => kept.id === project.id))
      .map((project) => project.createdAt)
    expect(left.every((time) => time <= times.at(-1)!)).toBe(true)
  })

  it("refuses an empty or over-long query with 400 and no session with 401", async () => {
    // Raw requests: the typed client would refuse these before sending.
    for (const q of ["", "   ", "x".repeat(201)]) {
      const refusal = await fetch(`${node.url}/api/search?q=${encodeURIComponent(q)}`, {
        headers: { cookie: member.client.cookieHeader() }
      })
      expect(refusal.status, JSON.stringify(q)).toBe(400)
      expect(await refusal.json()).toMatchObject({ error: "invalid_request" })
    }
    const missing = await fetch(`${node.url}/api/search`, { headers: { cookie: member.client.cookieHeader() } })
    expect(missing.status).toBe(400)
    expect((await run(search(member, "x".repeat(200)))).projects).toEqual([])
    const anonymous = await fetch(`${node.url}/api/search?q=market`)
    expect(anonymous.status).toBe(401)
  })
})
