/**
 * Two real nodes on loopback: node A's square posts go to B only when A's owner publishes to B,
 * arrive in B's square with their provenance and raise `square.post` on B's sockets; a post
 * deleted on A is retracted from B; a post hidden by A's moderation never reaches B; a blocked
 * peer gets nothing. Also: a being reads its own did, and the directory status is the owner's.
 */
import * as Option from "effect/Option"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { beingKeyOf, capabilitiesOf } from "../support/federation.ts"
import { freePort } from "../support/free-port.ts"
import { LiveTab } from "../support/live.ts"
import {
  Client,
  refused,
  registerMember,
  registerOwner,
  run,
  startNode,
  type Registered,
  type TestNode
} from "../support/node.ts"
import { firstPage } from "../support/client.ts"

let a: TestNode
let b: TestNode
let ownerA: Registered
let ownerB: Registered
let didA: string
let didB: string

beforeAll(async () => {
  ;[a, b] = await Promise.all([startNode(), startNode()])
  ;[ownerA, ownerB] = await Promise.all([registerOwner(a), registerOwner(b)])
  ;[didA, didB] = (await Promise.all([capabilitiesOf(a), capabilitiesOf(b)])).map((profile) => profile.payload.did)
  await run(
    ownerA.client.api.federation.addPeer({ payload: { nodeDid: didB as never, endpoint: b.url, name: "Bo's node" } })
  )
  expect(
    (
      await run(
        ownerB.client.api.federation.addPeer({
          payload: { nodeDid: didA as never, endpoint: a.url, name: "Ada's node" }
        })
      )
    ).verified
  ).toBe(true)
  expect((await run(ownerA.client.api.federation.greetPeer({ path: { id: didB } }))).verified).toBe(true)
})
afterAll(() => Promise.all([a.close(), b.close()]))

const say = (owner: Registered, content: string) => run(owner.client.api.beings.post({ payload: { content } }))
const posts = (owner: Registered) =>
  run(owner.client.api.federation.outbox({ urlParams: { kind: "post", ...firstPage } }))
const retractions = (owner: Registered) =>
  run(owner.client.api.federation.outbox({ urlParams: { kind: "retraction", ...firstPage } }))
const squareOf = (owner: Registered) => run(owner.client.api.beings.square())
const flush = (owner: Registered) => run(owner.client.api.federation.flush())

describe("square posts between nodes", () => {
  it("stay home while the owner does not publish to the peer", async () => {
    const made = await say(ownerA, "Only for this node's square.")
    expect((await posts(ownerA)).filter((row) => row.messageId === made.id)).toEqual([])
    await flush(ownerA)
    expect((await squareOf(ownerB)).map((post) => post.content)).not.toContain("Only for this node's square.")
  })

  it("go to a peer with publish on, land in its square with their provenance, and raise square.post there", async () => {
    expect(
      (await run(ownerA.client.api.federation.updatePeer({ path: { id: didB }, payload: { publish: true } }))).publish
    ).toBe(true)
    const tab = await LiveTab.open(b, ownerB.client)
    const made = await say(ownerA, "Hello from the other square.")
    const adaDid = (await beingKeyOf(a, ownerA.being.id))!.did
    const [queued] = (await posts(ownerA)).filter((row) => row.messageId === made.id)
    expect(queued).toMatchObject({
      direction: "out",
      kind: "post",
      peerDid: didB,
      authorDid: adaDid,
      audienceDid: didB,
      state: "queued",
      sealed: true
    })

    expect(await flush(ownerA)).toMatchObject({ delivered: 1 })
    const arrived = (await tab.nextOf("square.post")).post
    expect(arrived).toMatchObject({
      content: "Hello from the other square.",
      authorId: adaDid,
      authorName: ownerA.being.displayName,
      origin: { peerDid: didA, peerName: "Ada's node", authorDid: adaDid }
    })
    tab.socket.close()
    expect((await squareOf(ownerB)).find((post) => post.id === arrived.id)).toMatchObject({ origin: { peerDid: didA } })
    expect((await posts(ownerA)).find((row) => row.messageId === made.id)?.state).toBe("delivered")
  })

  it("are retracted from the peer when deleted at home", async () => {
    const made = await say(ownerA, "Soon to be taken back.")
    await flush(ownerA)
    const there = (await squareOf(ownerB)).find((post) => post.content === "Soon to be taken back.")
    expect(there).toBeDefined()

    const tab = await LiveTab.open(b, ownerB.client)
    expect(await run(ownerA.client.api.beings.deletePost({ path: { id: made.id } }))).toEqual({
      id: made.id,
      deleted: true
    })
    expect((await retractions(ownerA)).filter((row) => row.messageId === made.id)).toMatchObject([
      { kind: "retraction", peerDid: didB, state: "queued" }
    ])
    await flush(ownerA)
    expect((await tab.nextOf("square.retracted")).postId).toBe(there!.id)
    tab.socket.close()
    expect((await squareOf(ownerB)).map((post) => post.id)).not.toContain(there!.id)
    expect((await squareOf(ownerA)).map((post) => post.id)).not.toContain(made.id)
  })

  it("never leave when hidden by moderation before they went", async () => {
    const made = await say(ownerA, "A line the moderator hides.")
    await run(ownerA.client.api.moderation.hidePost({ path: { id: made.id } }))
    await flush(ownerA)
    expect((await squareOf(ownerB)).map((post) => post.content)).not.toContain("A line the moderator hides.")
    expect((await posts(ownerA)).find((row) => row.messageId === made.id)).toMatchObject({
      state: "refused",
      lastError: expect.stringContaining("withdrawn")
    })
  })

  it("are refused deletion by another member, and a remote post is not deleted by anyone here", async () => {
    const made = await say(ownerA, "Mine to delete.")
    const member = await registerMember(a, ownerA.client)
    const other = await refused(member.client.api.beings.deletePost({ path: { id: made.id } }))
    expect([other.status, other.body.error]).toEqual([403, "forbidden"])
    expect((await squareOf(ownerA)).map((post) => post.id)).toContain(made.id)
    const missing = await refused(ownerA.client.api.beings.deletePost({ path: { id: "nope" } }))
    expect(missing.status).toBe(404)
    const remote = (await squareOf(ownerB)).find((post) => post.origin !== undefined)!
    const theirs = await refused(ownerB.client.api.beings.deletePost({ path: { id: remote.id } }))
    expect(theirs.status).toBe(403)
  })

  it("go to no blocked peer, whatever publish says", async () => {
    await run(ownerA.client.api.federation.updatePeer({ path: { id: didB }, payload: { blocked: true } }))
    const made = await say(ownerA, "Not for a blocked peer.")
    expect((await posts(ownerA)).filter((row) => row.messageId === made.id)).toEqual([])
    await flush(ownerA)
    expect((await squareOf(ownerB)).map((post) => post.content)).not.toContain("Not for a blocked peer.")
  })
})

describe("one's own did", () => {
  it("is shown to every signed-in being, and is the key it signs with", async () => {
    const member = await registerMember(a, ownerA.client)
    const mine = await run(member.client.api.federation.me())
    expect(mine).toEqual({
      beingId: member.being.id,
      handle: member.being.handle,
      did: (await beingKeyOf(a, member.being.id))!.did,
      nodeDid: didA
    })
    expect((await new Client(a.url).raw("GET", "/api/federation/me")).status).toBe(401)
  })
})

describe("the directory status", () => {
  it("is not configured, with empty fields, until a directory is set; the owner's only", async () => {
    expect(await run(ownerA.client.api.federation.directoryStatus())).toEqual({
      configured: false,
      endpoint: null,
      directoryDid: null,
      nodeDid: didA,
      registered: false,
      advertisedEndpoint: null,
      handles: [],
      registeredAt: null,
      expiresAt: null,
      lastError: null,
      creditsClaimed: 0
    })
    const member = await registerMember(a, ownerA.client)
    const forbidden = await refused(member.client.api.federation.directoryStatus())
    expect([forbidden.status, forbidden.body.error]).toEqual([403, "forbidden"])
    const anonymous = await new Client(a.url).raw("GET", "/api/directory/status")
    expect(anonymous.status).toBe(401)
  })

  it("says configured with the endpoint once DIRECTORY_ENDPOINT is set, and why registering failed when nothing answers there", async () => {
    const nowhere = `http://127.0.0.1:${await freePort()}`
    const c = await startNode({ directoryEndpoint: Option.some(nowhere) })
    try {
      const owner = await registerOwner(c)
      expect(await run(owner.client.api.federation.directoryRegister())).toMatchObject({
        configured: true,
        endpoint: nowhere,
        directoryDid: null,
        registered: false,
        lastError: expect.stringContaining("did not answer")
      })
    } finally {
      await c.close()
    }
  })
})
