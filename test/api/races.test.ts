import { afterEach, describe, expect, it } from "vitest"
import { Client, person, registerOwner, startNode, type TestNode } from "../support/node.ts"

describe("races", () => {
  let node: TestNode
  afterEach(() => node.close())

  it("two racing first registrations with the owner code: exactly one owner", async () => {
    node = await startNode()
    const answers = await Promise.all(
      [0, 1].map(() => new Client(node.url).post("/api/auth/register", person(node.ownerCode)))
    )
    expect(answers.map((a) => a.status).sort()).toEqual([200, 403])
    expect(answers.find((a) => a.status === 200)!.body.being.isOwner).toBe(true)
  })

  it("20 concurrent registrations with one code: exactly one succeeds", async () => {
    node = await startNode()
    const owner = await registerOwner(node)
    const [code] = (await owner.client.post("/api/auth/codes", { count: 1 })).body
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => new Client(node.url).post("/api/auth/register", person(code.code)))
    )
    const statuses = answers.map((a) => a.status)
    expect(statuses.filter((s) => s === 200)).toHaveLength(1)
    expect(statuses.filter((s) => s === 403)).toHaveLength(19)
    expect((await owner.client.get("/api/auth/beings")).body).toHaveLength(2)
    const spent = (await owner.client.get("/api/auth/codes")).body.find((row: { code: string }) => row.code === code.code)
    expect(spent.usedBy).toBe(answers.find((a) => a.status === 200)!.body.being.id)
  })
})
