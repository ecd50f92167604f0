/**
 * Local first over real HTTP: a node with no embed binding stores memories, searches them by
 * words alone and says so (the `X-Memory-Search` header), and /api/health reports the coverage
 * as degraded. (The backfill that catches up once a tier answers: test/unit/twin/memory-backfill.test.ts.)
 */
import { describe, expect, it } from "vitest"
import { Health } from "../../extensions/health/contract/api.ts"
import { memorySearchHeader } from "../../extensions/twin/contract/records.ts"
import { noModelSettings } from "../support/models.ts"
import { bodyAs, nodeWithOwner, refused, run } from "../support/node.ts"

const context = nodeWithOwner(noModelSettings)

describe("with no embed binding", () => {
  it("stores, searches by words only and says so; health reports the coverage as degraded", async () => {
    const { client } = context.owner
    const memory = await run(
      client.api.twin.createMemory({ payload: { content: "Ada's retriever is called Biscuit.", tags: ["pets"] } })
    )
    const words = await client.raw("GET", "/api/twin/memories?q=biscuit")
    expect(words.headers[memorySearchHeader]).toBe("words")
    expect(words.body).toEqual([memory])
    expect((await client.raw("GET", "/api/twin/memories?q=pets")).body).toEqual([memory])
    expect((await client.raw("GET", "/api/twin/memories?q=dog")).body).toEqual([])

    const health = bodyAs(Health, await client.raw("GET", "/api/health"))
    expect(health.embeddings).toEqual({
      available: false,
      embedded: 0,
      total: 1,
      leavesDevice: true,
      degraded: true,
      note: expect.stringContaining("searched by words only")
    })
  })

  it("refuses to learn at once with 503 models_unavailable (no cheap tier), learning nothing; status says so", async () => {
    const { client } = context.owner
    const before = await run(client.api.twin.status())
    const refusal = await refused(client.api.twin.learn({ payload: { text: "Ada moved to Lyon.", source: "chat" } }))
    expect(refusal).toMatchObject({ status: 503, body: { error: "models_unavailable", details: { tier: "cheap" } } })
    const after = await run(client.api.twin.status())
    expect(after).toEqual(before)
    expect(after).toMatchObject({
      llm: { configured: false },
      embeddings: { available: false, degraded: true },
      counts: { activity: 0 }
    })
    expect(await run(client.api.twin.env())).toMatchObject({ llm: false })
    expect(await refused(client.api.twin.reflect())).toMatchObject({
      status: 503,
      body: { error: "models_unavailable" }
    })
  })
})
