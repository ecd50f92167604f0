/**
 * Two real nodes on loopback, each with its own data and owner: they find each other by did and
 * endpoint, shake hands, and refuse what the second document says deliver refuses, each with its
 * code in an HTTP 200 receipt.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { verifiedBy } from "../../extensions/federation/wire/signed.ts"
import {
  beingKeyOf,
  capabilitiesOf,
  helloFrom,
  newKeyPair,
  nodeKeyOf,
  plainEnvelope,
  sealedEnvelope,
  type KeyPair
} from "../support/federation.ts"
import { freePort } from "../support/free-port.ts"
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
})
afterAll(() => Promise.all([a.close(), b.close()]))

const peersOf = (owner: Registered) => run(owner.client.api.federation.listPeers({ urlParams: firstPage }))
const peerOf = async (owner: Registered, did: string) => (await peersOf(owner)).find((peer) => peer.nodeDid === did)

describe("the capability profile", () => {
  it("is public, signed by the node's did, with every field of the record", async () => {
    const profile = await capabilitiesOf(a)
    expect(profile.payload.did).toMatch(/^did:key:z6Mk/)
    expect(verifiedBy(profile, profile.payload.did)).toBe(true)
    expect(Object.keys(profile.payload).sort()).toEqual([
      "delegatesTo",
      "did",
      "expiresAt",
      "fronts",
      "issuedAt",
      "limits",
      "profile",
      "runs",
      "seedProtocol",
      "type",
      "v"
    ])
    expect(profile.payload.runs.map((facility) => facility.name)).toEqual([
      "peer.hello",
      "peer.deliver",
      "peer.collect",
      "capabilities",
      "seed.knock",
      "seed.beat",
      "seed.act"
    ])
    expect(profile.payload.runs.find((facility) => facility.name === "seed.knock")).toEqual({
      name: "seed.knock",
      path: "/api/federation/seed/knock",
      protocol: 1
    })
    expect(profile.payload.limits.maxDocumentBytes).toBe(64 * 1024)
  })
})

describe("peers and the handshake", () => {
  it("a node that has not added yours does not accept it: refused, with its reason", async () => {
    const session = await run(
      ownerA.client.api.federation.addPeer({ payload: { nodeDid: didB as never, endpoint: b.url, name: "B" } })
    )
    expect(session.verified).toBe(false)
    expect(session.peer.status).toBe("refused")
    expect(session.reason).toContain("has not added yours")
    expect(session.peer.verifiedAt).toBeNull()
  })

  it("once both added each other, the handshake verifies: challenge attested, descriptor copied, skew measured", async () => {
    const session = await run(
      ownerB.client.api.federation.addPeer({ payload: { nodeDid: didA as never, endpoint: a.url } })
    )
    expect(session.verified).toBe(true)
    expect(session.peer).toMatchObject({
      nodeDid: didA,
      status: "verified",
      endpoint: a.url,
      name: new URL(a.url).host,
      lastError: null,
      publish: false
    })
    expect(session.peer.software).toMatch(/^svc-node\//)
    expect(session.peer.serves).toContain("peer.deliver")
    expect(session.check).toMatchObject({ type: "svc.attestation", signer: didA, valid: true })
    expect(Math.abs(session.skewSeconds!)).toBeLessThan(5)

    const again = await run(ownerA.client.api.federation.greetPeer({ path: { id: didB } }))
    expect(again.verified).toBe(true)
    expect((await peerOf(ownerA, didB))?.status).toBe("verified")
  })

  it("a second add of the same node is a conflict; this node's own did is refused", async () => {
    const twice = await refused(
      ownerB.client.api.federation.addPeer({ payload: { nodeDid: didA as never, endpoint: a.url } })
    )
    expect([twice.status, twice.body.error]).toEqual([409, "peer_exists"])
    const own = await refused(
      ownerB.client.api.federation.addPeer({ payload: { nodeDid: didB as never, endpoint: b.url } })
    )
    expect([own.status, own.body.error]).toEqual([400, "own_node"])
  })

  it("a hello from a stranger is answered accepted false and tells nothing else", async () => {
    const stranger = newKeyPair()
    const greeting = await run(
      new Client(a.url).api.federationWire.hello({ payload: helloFrom(stranger, didA) as never })
    )
    expect(greeting).toMatchObject({ accepted: false, descriptor: null, attestation: null, challenge: null })
    expect(greeting.reason).toContain("has not added yours")
  })

  it("an asleep peer is still added, as unreachable, never verified", async () => {
    const asleep = newKeyPair()
    const session = await run(
      ownerA.client.api.federation.addPeer({
        payload: { nodeDid: asleep.did as never, endpoint: `http://127.0.0.1:${await freePort()}` }
      })
    )
    expect(session.verified).toBe(false)
    expect(session.peer.status).toBe("unreachable")
    expect(session.peer.verifiedAt).toBeNull()
    expect(session.peer.lastError).toContain("refused the connection")
    expect((await peerOf(ownerA, asleep.did))?.status).toBe("unreachable")
  })

  it("block, move, unblock: the block survives the move; unblock is unverified; a greeting verifies again", async () => {
    const api = ownerB.client.api.federation
    const blocked = await run(api.updatePeer({ path: { id: didA }, payload: { blocked: true } }))
    expect(blocked.status).toBe("blocked")
    const refusedGreeting = await run(api.greetPeer({ path: { id: didA } }))
    expect(refusedGreeting).toMatchObject({ verified: false, peer: { status: "blocked" } })
    const moved = await run(api.updatePeer({ path: { id: didA }, payload: { endpoint: `${a.url}/` } }))
    expect(moved).toMatchObject({ status: "blocked", endpoint: `${a.url}/` })
    const unblocked = await run(
      api.updatePeer({ path: { id: didA }, payload: { blocked: false, endpoint: a.url, publish: true } })
    )
    expect(unblocked).toMatchObject({ status: "unverified", publish: true })
    expect((await run(api.greetPeer({ path: { id: didA } }))).peer.status).toBe("verified")

    const movedAway = await run(api.updatePeer({ path: { id: didA }, payload: { endpoint: `${a.url}/elsewhere` } }))
    expect(movedAway.status).toBe("unverified")
    await run(api.updatePeer({ path: { id: didA }, payload: { endpoint: a.url } }))
    expect((await run(api.greetPeer({ path: { id: didA } }))).verified).toBe(true)
  })

  it("is the owner's alone", async () => {
    const member = await registerMember(a, ownerA.client)
    const listed = await refused(member.client.api.federation.listPeers({ urlParams: firstPage }))
    expect(listed.status).toBe(403)
    const added = await refused(
      member.client.api.federation.addPeer({ payload: { nodeDid: newKeyPair().did as never, endpoint: b.url } })
    )
    expect(added.status).toBe(403)
  })

  it("delete forgets the peer and says how many threads it touched; a second delete is a 404", async () => {
    const asleep = (await peersOf(ownerA)).find((peer) => peer.status === "unreachable")!
    expect(await run(ownerA.client.api.federation.removePeer({ path: { id: asleep.nodeDid } }))).toEqual({
      nodeDid: asleep.nodeDid,
      removed: true,
      threadsAffected: 0
    })
    const again = await refused(ownerA.client.api.federation.removePeer({ path: { id: asleep.nodeDid } }))
    expect(again.status).toBe(404)
    expect(await peerOf(ownerA, asleep.nodeDid)).toBeUndefined()
  })
})

describe("deliver", () => {
  let nodeA: KeyPair
  let ada: KeyPair
  let bo: string
  const wire = () => new Client(b.url)
  const deliver = async (body: unknown, headers: Record<string, string> = {}) => {
    const answer = await wire().raw("POST", "/api/federation/peer/deliver", body, headers)
    expect(answer.status).toBe(200)
    return answer.body as {
      accepted: boolean
      code: string | null
      reason: string
      digest: string | null
      check: unknown
    }
  }
  const inboundRows = () =>
    b.runtime.runPromise(
      Effect.flatMap(
        SqlClient.SqlClient,
        (sql) =>
          sql<{
            digest: string
            sealed: number
            direction: string
            peer_did: string
            state: string
          }>`SELECT digest, sealed, direction, peer_did, state FROM federation_messages`
      )
    )

  beforeAll(async () => {
    nodeA = await nodeKeyOf(a)
    ada = newKeyPair()
    // B's owner registered after B started: their key is made the first time a did must be found on B.
    expect(await beingKeyOf(b, ownerB.being.id)).toBeNull()
    const nobody = await deliver(sealedEnvelope({ node: nodeA, author: ada, audience: didB, to: newKeyPair().did }))
    expect(nobody.code).toBe("wrong_recipient")
    bo = (await beingKeyOf(b, ownerB.being.id))!.did
  })

  it("accepts a sealed envelope from a verified peer once, and keeps it as an inbound row", async () => {
    const { envelope, digest } = sealedEnvelope({ node: nodeA, author: ada, audience: didB, to: bo })
    const receipt = await deliver({ envelope })
    expect(receipt).toMatchObject({
      accepted: true,
      code: null,
      digest,
      check: { type: "svc.message", signer: ada.did, digest, valid: true }
    })
    const replay = await deliver({ envelope })
    expect(replay).toMatchObject({ accepted: false, code: "replayed", digest })
    const rows = (await inboundRows()).filter((row) => row.digest === digest)
    expect(rows).toEqual([{ digest, sealed: 1, direction: "in", peer_did: didA, state: "received" }])
  })

  it("accepts protocol 1 in the clear, marked sealed false", async () => {
    const { envelope, digest } = plainEnvelope({ node: nodeA, author: ada, audience: didB, to: bo })
    expect(await deliver({ envelope })).toMatchObject({ accepted: true, digest })
    expect((await inboundRows()).find((row) => row.digest === digest)?.sealed).toBe(0)
  })

  it("refuses a message for a seed's being as seed_recipient, keeping nothing", async () => {
    const device = newKeyPair()
    await run(
      ownerB.client.api.federationSeeds.pairSeed({ payload: { did: device.did as never, name: "Porch sensor" } })
    )
    const { envelope, digest } = sealedEnvelope({ node: nodeA, author: ada, audience: didB, to: device.did })
    expect(await deliver({ envelope })).toMatchObject({ accepted: false, code: "seed_recipient", digest })
    expect((await inboundRows()).some((row) => row.digest === digest)).toBe(false)
  })

  it("refuses, cheapest first, each with its code", async () => {
    const parts = { node: nodeA, author: ada, audience: didB, to: bo }
    expect((await deliver({})).code).toBe("malformed")
    expect((await deliver("[1,2]")).code).toBe("malformed")
    const sealed = sealedEnvelope(parts).envelope
    expect((await deliver({ envelope: { ...sealed, protocol: 3 } })).code).toBe("protocol_unsupported")
    expect((await deliver({ envelope: { ...sealed, type: "svc.envelope" } })).code).toBe("protocol_unsupported")
    expect((await deliver({ envelope: { ...sealed, seal: { v: 1 } } })).code).toBe("malformed")

    const elsewhere = sealedEnvelope({ ...parts, audience: didA }).envelope
    expect((await deliver({ envelope: elsewhere })).code).toBe("wrong_audience")

    const stranger = newKeyPair()
    expect((await deliver(sealedEnvelope({ ...parts, node: stranger }))).code).toBe("unknown_peer")

    const forged = {
      ...sealed,
      descriptor: { ...sealed.descriptor, payload: { ...sealed.descriptor.payload, label: "forged" } }
    }
    expect((await deliver({ envelope: forged })).code).toBe("bad_descriptor")

    const ct = sealed.seal.ct
    const tampered = {
      ...sealed,
      seal: { ...sealed.seal, ct: ct.slice(0, 40) + (ct[40] === "A" ? "B" : "A") + ct.slice(41) }
    }
    expect((await deliver({ envelope: tampered })).code).toBe("unsealable")
    const sealedForA = sealedEnvelope({ ...parts, audience: didA }).envelope.seal
    expect((await deliver({ envelope: { ...sealed, seal: sealedForA } })).code).toBe("unsealable")

    const plain = plainEnvelope(parts).envelope
    const rewritten = {
      ...plain,
      body: {
        ...plain.body,
        message: { ...plain.body.message, payload: { ...plain.body.message.payload, body: "rewritten" } }
      }
    }
    const badSignature = await deliver({ envelope: rewritten })
    expect(badSignature).toMatchObject({ code: "bad_signature", check: { valid: false, signer: ada.did } })

    expect((await deliver(sealedEnvelope({ ...parts, passportSubject: newKeyPair().did }))).code).toBe(
      "passport_mismatch"
    )
    const otherNode = newKeyPair()
    const borrowed = plainEnvelope(parts).envelope
    const foreignPassport = plainEnvelope({ ...parts, node: otherNode }).envelope.body.passport
    expect(
      (await deliver({ envelope: { ...borrowed, body: { ...borrowed.body, passport: foreignPassport } } })).code
    ).toBe("passport_mismatch")
    expect((await deliver(sealedEnvelope({ ...parts, attestAbout: "A".repeat(43) }))).code).toBe("bad_attestation")
  })

  it("reads a small body only: more than FEDERATION_MAX_DOCUMENT_BYTES is a 413 before any check", async () => {
    const answer = await wire().raw("POST", "/api/federation/peer/deliver", { envelope: "x".repeat(70 * 1024) })
    expect(answer.status).toBe(413)
  })

  it("counts in a rate class of its own: the 121st wire request of a minute from one address is a 429", async () => {
    const one = new Client(b.url)
    const answers = await Promise.all(Array.from({ length: 121 }, () => one.raw("GET", "/api/federation/capabilities")))
    const statuses = answers.map((answer) => answer.status)
    expect(statuses.filter((status) => status === 200)).toHaveLength(120)
    const limited = answers.find((answer) => answer.status === 429)!
    expect(limited.body).toMatchObject({ error: "rate_limited", details: { class: "wire" } })
  })

  it("is a signed wire route: another site's headers do not stop it", async () => {
    const { envelope } = sealedEnvelope({ node: nodeA, author: ada, audience: didB, to: bo })
    const receipt = await deliver({ envelope }, { origin: "https://elsewhere.example", "sec-fetch-site": "cross-site" })
    expect(receipt.accepted).toBe(true)
  })

  it("refuses a blocked peer before any signature", async () => {
    await run(ownerB.client.api.federation.updatePeer({ path: { id: didA }, payload: { blocked: true } }))
    const { envelope } = sealedEnvelope({ node: nodeA, author: ada, audience: didB, to: bo })
    expect((await deliver({ envelope })).code).toBe("blocked_peer")
    const greeting = await run(new Client(b.url).api.federationWire.hello({ payload: helloFrom(nodeA, didB) as never }))
    expect(greeting.accepted).toBe(false)
  })
})
