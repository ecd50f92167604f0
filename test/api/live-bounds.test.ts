/**
 * The live channel has bounds: a being holds at most LIVE_MAX_SOCKETS_PER_BEING open sockets (the
 * next handshake is HTTP 429 `too_many_sockets`, and a closed tab makes room again), and every
 * handshake, admitted or not, counts in its address's global budget (429 `rate_limited` with a
 * Retry-After past it).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { LiveTab, refusedHandshake } from "../support/live.ts"
import { Client, registerOwner, startNode, type Registered, type TestNode } from "../support/node.ts"
import { until } from "../support/until.ts"

const MOST = 3
let node: TestNode
let owner: Registered

beforeAll(async () => {
  node = await startNode({ liveMaxSocketsPerBeing: MOST, rateLimitPerMinute: 30 })
  owner = await registerOwner(node)
})
afterAll(() => node.close())

/** The owner's browser from an address of its own: each opens tabs without spending the others' budget. */
const browser = () => {
  const other = new Client(node.url)
  other.copyCookiesFrom(owner.client)
  return other
}

describe("the live channel's bounds", () => {
  it(`refuses a being's socket past ${MOST} open ones with 429 too_many_sockets, and takes one again once a tab closes`, async () => {
    const open = () => {
      const tab = browser()
      return LiveTab.open(node, tab, tab.headers)
    }
    // `hello` comes once the being's actor has counted the socket (the rows a handshake reads).
    const tabs = await Promise.all(Array.from({ length: MOST }, open))
    const next = browser()
    const refusal = await refusedHandshake(node, next, next.headers)
    expect(refusal).toMatchObject({ status: 429, body: { error: "too_many_sockets" } })
    await tabs[0]!.close()
    // Closing is counted as the being's actor hears of it: until then the handshake is still refused.
    const again = await until("a socket taken again", async () => {
      try {
        return await open()
      } catch {
        return undefined
      }
    })
    await Promise.all([again.close(), ...tabs.slice(1).map((tab) => tab.close())])
  })

  it("counts every handshake in its address's global budget, refused ones too: past it, 429 rate_limited", async () => {
    const stranger = new Client(node.url)
    const statuses: Array<number> = []
    for (let i = 0; i < 31; i++) statuses.push((await refusedHandshake(node, stranger, stranger.headers)).status)
    expect(statuses.slice(0, 30)).toEqual(Array(30).fill(401))
    expect(statuses[30]).toBe(429)
    // An HTTP request from the same address finds the budget spent too: one budget, not one per door.
    expect((await stranger.raw("GET", "/api/auth/me")).status).toBe(429)
  })
})
