/**
 * Three real nodes on loopback: D runs as a directory; A and B register with it (A through a
 * recording proxy whose target the pinning test moves). A resolves B's owner's handle and adds B
 * as a peer by it: the ordinary handshake verifies B. And the refusals: a forged or stranger's
 * registration, a handle another node holds, a directory that changed its key at the same URL,
 * the owner's routes to anyone else. Renewal before `expiresAt` is the directory loop's, tested on
 * the TestClock (test/unit/federation/directory-loop.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as Option from "effect/Option"
import { newKeyPair } from "../../extensions/federation/wire/did-key.ts"
import { signPayload } from "../../extensions/federation/wire/signed.ts"
import { capabilitiesOf } from "../support/federation.ts"
import { recordingProxy, type RecordingProxy } from "../support/recording-proxy.ts"
import {
  Client,
  refused,
  registerMember,
  registerOwner,
  firstPage,
  run,
  startNode,
  type Registered,
  type TestNode
} from "../support/node.ts"

let d: TestNode
let a: TestNode
let b: TestNode
let ownerA: Registered
let ownerB: Registered
let didD: string
let didA: string
let didB: string
let aToD: RecordingProxy

beforeAll(async () => {
  d = await startNode({ directoryOn: true })
  aToD = await recordingProxy(d.url)
  ;[a, b] = await Promise.all([
    startNode({ directoryEndpoint: Option.some(aToD.url) }),
    startNode({ directoryEndpoint: Option.some(d.url) })
  ])
  ;[ownerA, ownerB] = await Promise.all([registerOwner(a), registerOwner(b)])
  ;[didD, didA, didB] = (await Promise.all([capabilitiesOf(d), capabilitiesOf(a), capabilitiesOf(b)])).map(
    (profile) => profile.payload.did
  )
}, 90_000)
afterAll(() => Promise.all([a.close(), b.close(), d.close(), aToD.close()]))

const statusOf = (owner: Registered) => run(owner.client.api.federation.directoryStatus())
const wire = (node: TestNode, path: string, body: unknown) => new Client(node.url).raw("POST", path, body)

describe("registering with a directory", () => {
  it("lists the owner's handle once there is an owner: every status field says so, the directory's did pinned", async () => {
    // A flush runs the directory loop: the owner's handle is new since the loop's first run at start.
    await Promise.all([run(ownerA.client.api.federation.flush()), run(ownerB.client.api.federation.flush())])
    const status = await statusOf(ownerA)
    expect(status).toMatchObject({
      configured: true,
      endpoint: aToD.url,
      directoryDid: didD,
      nodeDid: didA,
      registered: true,
      advertisedEndpoint: a.url,
      handles: [ownerA.registration.handle.toLowerCase()],
      lastError: null,
      creditsClaimed: 100
    })
    expect(Date.parse(status.expiresAt!) - Date.parse(status.registeredAt!)).toBeGreaterThan(23 * 3600_000)
    expect(await statusOf(ownerB)).toMatchObject({
      registered: true,
      directoryDid: didD,
      handles: [ownerB.registration.handle.toLowerCase()]
    })
  })

  it("resolves a handle to a record the directory signs", async () => {
    const answer = await wire(d, "/api/federation/directory/resolve", { handle: ownerB.registration.handle })
    expect(answer.status).toBe(200)
    expect(answer.body).toMatchObject({
      found: true,
      entry: { payload: { type: "svc.directory.entry", did: didD, node: didB, endpoint: b.url } }
    })
    expect((await wire(d, "/api/federation/directory/resolve", { handle: "nobody-here" })).body).toMatchObject({
      found: false,
      entry: null
    })
    // A node that is no directory resolves nothing.
    expect(
      (await wire(a, "/api/federation/directory/resolve", { handle: ownerB.registration.handle })).body
    ).toMatchObject({ found: false })
  })

  it("adds a peer by handle: resolved at the directory, then the ordinary handshake verifies it", async () => {
    // B's owner knows A (a handshake is accepted only by a node whose owner added the caller).
    await run(ownerB.client.api.federation.addPeer({ payload: { nodeDid: didA as never, endpoint: a.url } }))
    const session = await run(
      ownerA.client.api.federation.addPeerByHandle({ payload: { handle: ownerB.registration.handle } })
    )
    expect(session.verified).toBe(true)
    expect(session.peer).toMatchObject({ nodeDid: didB, endpoint: b.url })
    const unknown = await refused(ownerA.client.api.federation.addPeerByHandle({ payload: { handle: "nobody-here" } }))
    expect(unknown.status).toBe(404)
    expect(unknown.body).toMatchObject({ error: "handle_not_resolved" })
    expect(
      (await run(ownerA.client.api.federation.listPeers({ urlParams: firstPage }))).map((peer) => peer.nodeDid)
    ).toEqual([didB])
  })

  it("refuses a forged registration, a stranger's for another directory, a stale one and a taken handle; nothing changes", async () => {
    const stranger = newKeyPair()
    const payload = (did: string, aud: string, handles: Array<string>, issuedAt = new Date().toISOString()) => ({
      v: 1,
      type: "svc.directory.registration",
      did,
      aud,
      endpoint: "http://127.0.0.1:1",
      handles,
      issuedAt
    })
    const take = ownerB.registration.handle.toLowerCase()
    // Signed by a stranger's key but claiming B's did: forged.
    const forged = signPayload(payload(didB, didD, ["forged"]), stranger.secretKey)
    expect((await wire(d, "/api/federation/directory/register", forged)).body).toMatchObject({
      accepted: false,
      code: "bad_signature",
      receipt: null
    })
    const elsewhere = signPayload(payload(stranger.did, newKeyPair().did, ["elsewhere"]), stranger.secretKey)
    expect((await wire(d, "/api/federation/directory/register", elsewhere)).body).toMatchObject({
      accepted: false,
      code: "wrong_audience"
    })
    const stale = signPayload(payload(stranger.did, didD, ["stale"], "2020-01-01T00:00:00.000Z"), stranger.secretKey)
    expect((await wire(d, "/api/federation/directory/register", stale)).body).toMatchObject({
      accepted: false,
      code: "stale"
    })
    const squat = signPayload(payload(stranger.did, didD, [take]), stranger.secretKey)
    expect((await wire(d, "/api/federation/directory/register", squat)).body).toMatchObject({
      accepted: false,
      code: "handle_taken"
    })
    // A node that is not a directory lists nobody.
    expect(
      (
        await wire(
          a,
          "/api/federation/directory/register",
          signPayload(payload(stranger.did, didA, ["x"]), stranger.secretKey)
        )
      ).body
    ).toMatchObject({ accepted: false, code: "not_directory" })
    // Nothing changed: B still holds its handle, nothing else was listed.
    expect((await wire(d, "/api/federation/directory/resolve", { handle: take })).body).toMatchObject({
      found: true,
      entry: { payload: { node: didB } }
    })
    for (const handle of ["forged", "elsewhere", "stale"]) {
      expect((await wire(d, "/api/federation/directory/resolve", { handle })).body).toMatchObject({ found: false })
    }
  })

  it("is the owner's alone", async () => {
    const anonymous = new Client(a.url)
    expect((await refused(anonymous.api.federation.directoryStatus())).status).toBe(401)
    expect((await refused(anonymous.api.federation.addPeerByHandle({ payload: { handle: "x" } }))).status).toBe(401)
    const member = await registerMember(a, ownerA.client)
    expect((await refused(member.client.api.federation.directoryStatus())).status).toBe(403)
    expect((await refused(member.client.api.federation.directoryRegister())).status).toBe(403)
    expect(
      (await refused(member.client.api.federation.addPeerByHandle({ payload: { handle: ownerB.registration.handle } })))
        .status
    ).toBe(403)
  })
})

describe("the directory's did, pinned", () => {
  it("refuses another key at the same URL before sending anything, and keeps the pin", async () => {
    const before = await statusOf(ownerA)
    aToD.target = b.url
    aToD.crossings.length = 0
    const after = await run(ownerA.client.api.federation.directoryRegister())
    expect(after.lastError).toContain("pinned")
    expect(after).toMatchObject({ directoryDid: didD, expiresAt: before.expiresAt })
    expect(aToD.crossings.map((crossing) => crossing.path)).toEqual(["/api/federation/capabilities"])
    aToD.target = d.url
  })
})
