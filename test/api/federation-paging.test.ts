/**
 * The owner's peers and federated conversations a page at a time, over real HTTP on a real node:
 * 55 peers (written as the peer actor's table holds them, at no address that answers) read oldest
 * first in pages that neither overlap nor leave one out, 50 when no page is named; 55
 * conversations with beings on three of them, each page naming its peer (one blocked, one
 * removed) and what waits or is stuck in its outbox; a page out of bounds is refused and changes
 * nothing.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { PeersRepository } from "../../actors/peer/peers-repository.ts"
import { FederatedConversation, FederatedMessage, Peer } from "../../extensions/federation/contract/records.ts"
import { newKeyPair } from "../support/federation.ts"
import { until } from "../support/until.ts"
import {
  Client,
  registerMember,
  registerOwner,
  run,
  startNode,
  type Registered,
  type TestNode
} from "../support/node.ts"
import { listed, pagesHoldAll, refusesBadPages } from "../support/paged-lists.ts"

let node: TestNode
let owner: Registered

const ALL = 55

/** Two peers to each second, from the first of 2026: the did decides between two of one moment. */
const peers: ReadonlyArray<Peer> = Array.from({ length: ALL }, (_, index) => ({
  nodeDid: newKeyPair().did,
  endpoint: `http://127.0.0.1:1/peer-${index}`,
  name: `Node ${index}`,
  status: "unverified",
  label: null,
  profile: null,
  software: null,
  serves: [],
  addedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, Math.floor(index / 2))).toISOString(),
  verifiedAt: null,
  lastSeenAt: null,
  collectedAt: null,
  relay: null,
  lastError: null,
  publish: false
}))

beforeAll(async () => {
  node = await startNode()
  owner = await registerOwner(node)
  await node.runtime.runPromise(
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const repository = yield* PeersRepository
      yield* sql.withTransaction(Effect.forEach(peers, (peer) => repository.insert(peer), { discard: true }))
    }).pipe(Effect.orDie, Effect.provide(PeersRepository.Default))
  )
})
afterAll(() => node.close())

describe("GET /api/federation/peers, a page at a time", () => {
  it("answers the peers oldest first in pages that do not overlap and together hold every peer", async () => {
    const all = await pagesHoldAll(owner.client, Peer, "/api/federation/peers", (peer) => peer.nodeDid)
    const oldestFirst = [...peers]
      .sort((a, b) => a.addedAt.localeCompare(b.addedAt) || (a.nodeDid < b.nodeDid ? -1 : 1))
      .map((peer) => peer.nodeDid)
    expect(all).toEqual(oldestFirst)
  })

  it("refuses a page out of bounds or not a number, and only the owner reads it", async () => {
    await refusesBadPages(owner.client, Peer, "/api/federation/peers")
    const member = await registerMember(node, owner.client)
    expect((await member.client.raw("GET", "/api/federation/peers?limit=10")).status).toBe(403)
  })
})

describe("GET /api/federation/conversations, a page at a time", () => {
  const [open, blocked, removed] = [peers[0]!, peers[1]!, peers[2]!]
  /** The peer each conversation is with, by its index: the three in turn. */
  const peerOf = (index: number) => [open, blocked, removed][index % 3]!
  let threads: ReadonlyArray<string>

  beforeAll(async () => {
    const made: Array<string> = []
    for (let index = 0; index < ALL; index++) {
      const conversation = await run(
        owner.client.api.federation.openConversation({
          payload: {
            peerDid: peerOf(index).nodeDid as never,
            remoteDid: newKeyPair().did as never,
            petname: `Being ${index}`
          }
        })
      )
      made.push(conversation.threadId)
    }
    threads = made
    await run(owner.client.api.federation.updatePeer({ path: { id: blocked.nodeDid }, payload: { blocked: true } }))
    await run(owner.client.api.federation.removePeer({ path: { id: removed.nodeDid } }))
    // Nothing is sent to a blocked peer: its message waits. One for a removed peer is stuck.
    for (const threadId of [threads[1]!, threads[2]!]) {
      await run(owner.client.api.threads.postMessage({ path: { id: threadId }, payload: { content: "Still there?" } }))
    }
  })

  it("answers oldest first in pages that do not overlap and together hold every conversation", async () => {
    const path = "/api/federation/conversations"
    expect(await pagesHoldAll(owner.client, FederatedConversation, path, (c) => c.threadId)).toEqual(threads)
  })

  it("names each conversation's peer on every page, and what waits or is stuck", async () => {
    const stuck = await until("the removed peer's message stuck", async () => {
      const page = await listed(
        owner.client,
        FederatedConversation,
        "/api/federation/conversations",
        "?limit=1&offset=2"
      )
      return page[0]!.stuck === 1 ? page[0] : undefined
    })
    expect(stuck).toMatchObject({ threadId: threads[2], peerName: null, remoteCurrent: false, queued: 0 })
    const page = await listed(
      owner.client,
      FederatedConversation,
      "/api/federation/conversations",
      "?limit=6&offset=48"
    )
    expect(page.map((c) => [c.petname, c.peerName, c.remoteCurrent])).toEqual(
      [48, 49, 50, 51, 52, 53].map((index) => [
        `Being ${index}`,
        peerOf(index) === removed ? null : peerOf(index).name,
        peerOf(index) === open
      ])
    )
    const [waiting] = await listed(
      owner.client,
      FederatedConversation,
      "/api/federation/conversations",
      "?limit=1&offset=1"
    )
    expect(waiting).toMatchObject({ threadId: threads[1], peerName: blocked.name, queued: 1, stuck: 0 })
    const rest = await listed(
      owner.client,
      FederatedConversation,
      "/api/federation/conversations",
      "?limit=200&offset=3"
    )
    expect(rest.filter((c) => c.queued !== 0 || c.stuck !== 0)).toEqual([])
  })

  it("refuses a page out of bounds or not a number, and changes nothing", async () => {
    await refusesBadPages(owner.client, FederatedConversation, "/api/federation/conversations")
  })
})

describe("GET /api/federation/outbox, a page at a time", () => {
  it("answers the newest 50 by default and the rest by offset, and refuses a bad page", async () => {
    // Posted to the blocked peer's conversation: each waits in the outbox, nothing is sent.
    const [waiting] = await listed(
      owner.client,
      FederatedConversation,
      "/api/federation/conversations",
      "?limit=1&offset=1"
    )
    // Each from an address of its own: posting is in the `llm` rate class (20 a minute an address).
    for (let index = 0; index < ALL; index++) {
      const browser = new Client(node.url)
      browser.copyCookiesFrom(owner.client)
      await run(browser.api.threads.postMessage({ path: { id: waiting!.threadId }, payload: { content: `${index}` } }))
    }
    const path = "/api/federation/outbox"
    const every = await listed(owner.client, FederatedMessage, path, "?kind=message&limit=200")
    expect(every.length).toBeGreaterThanOrEqual(ALL)
    const first = await listed(owner.client, FederatedMessage, path, "?kind=message")
    const rest = await listed(owner.client, FederatedMessage, path, "?kind=message&offset=50&limit=200")
    expect(first).toHaveLength(50)
    expect([...first, ...rest].map((message) => message.id)).toEqual(every.map((message) => message.id))
    await refusesBadPages(owner.client, FederatedMessage, path)
  })
})
