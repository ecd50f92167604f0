/** Helpers of the tests that run a node as several processes (child nodes sharing one database). */
import { expect } from "vitest"
import type { ChildNode } from "./child-node.ts"
import { Client, type TestNode } from "./node.ts"

/** The live channel of a process: LiveTab needs only its URL. */
export const asNode = (child: ChildNode) => ({ url: child.url }) as TestNode

/** The same person's browser (its cookies and address), pointed at another process. */
export const sameBrowserOn = (child: ChildNode, client: Client) => {
  const other = new Client(child.url, { "x-forwarded-for": client.headers["x-forwarded-for"]! })
  other.copyCookiesFrom(client)
  return other
}

const badLogin = { email: "a@b.cd", password: "x" }

/**
 * Ten wrong logins from `address`, split over both processes, spend the one budget of ten: the
 * 11th is 429 on either, with a Retry-After; the next address still has its whole budget.
 */
export const expectLoginGuessesShared = async (first: ChildNode, second: ChildNode, address: string, otherAddress: string) => {
  const headers = { "x-forwarded-for": address }
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
  expect((await new Client(second.url, { "x-forwarded-for": otherAddress }).raw("POST", "/api/auth/login", badLogin)).status).toBe(401)
}
