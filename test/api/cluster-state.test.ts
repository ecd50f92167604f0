/**
 * Two node processes over one database file, as two runners of a cluster share one database:
 * what must hold for the cluster as a whole holds across them. Rate limits count in the database
 * (RATE_LIMIT_STORE=database), so ten wrong logins split over both spend the one budget of ten.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startChildNode, type ChildNode } from "../support/child-node.ts"
import { Client } from "../support/node.ts"

const badLogin = { email: "a@b.cd", password: "x" }

let first: ChildNode
let second: ChildNode

beforeAll(async () => {
  const env = { RATE_LIMIT_STORE: "database" }
  // One after the other: the first creates the database and runs the migrations.
  first = await startChildNode({ env })
  second = await startChildNode({ env, dataDir: first.dataDir, ownerCode: first.ownerCode })
})
afterAll(async () => {
  await second?.close()
  await first?.close()
})

describe("state that holds across processes", () => {
  it("counts login guesses from one address across both processes: the 11th is 429 on either", async () => {
    const headers = { "x-forwarded-for": "10.7.7.1" }
    const one = new Client(first.url, headers)
    const two = new Client(second.url, headers)
    const statuses: Array<number> = []
    for (let i = 0; i < 10; i++) statuses.push((await (i % 2 === 0 ? one : two).raw("POST", "/api/auth/login", badLogin)).status)
    expect(statuses).toEqual(Array(10).fill(401))
    for (const client of [one, two]) {
      const answer = await client.raw("POST", "/api/auth/login", badLogin)
      expect(answer.status).toBe(429)
      expect(Number(answer.headers["retry-after"])).toBeGreaterThan(0)
    }
    // Another address still has its whole budget, on either process.
    expect((await new Client(second.url, { "x-forwarded-for": "10.7.7.2" }).raw("POST", "/api/auth/login", badLogin)).status).toBe(401)
  })
})
