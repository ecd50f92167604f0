/**
 * Three real nodes on loopback: A and C talk, C cannot be dialled (A's peer row for C points at
 * a closed port) and is enrolled at R, a node that runs as a relay. A's courier, woken when the
 * message is queued, fails to reach C, leaves the sealed envelope at R; C's relay loop collects
 * it and it lands in C's being's thread. Recording proxies in front of R show nothing readable
 * crossed. And the refusals: a stranger learns nothing, R's did is pinned, a deposit for a node
 * not enrolled or beyond the limit is refused, a replayed envelope is held once.
 */
import type * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { signPayload } from "../../extensions/federation/wire/signed.ts"
import { beingDidOf, capabilitiesOf, collectRequest, newKeyPair, sealedEnvelope } from "../support/federation.ts"
import { until } from "../support/until.ts"
import { freePort } from "../support/free-port.ts"
import { recordingProxy, type RecordingProxy } from "../support/recording-proxy.ts"
import { shiftedClock } from "../support/shifted-clock.ts"
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

/**
 * A's loops run once at its start and never again on their own (a sleep of 30 s or more never
 * ends), so what A's courier sends without a flush it sends because a queued message woke it.
 */
const wakeOnly: Clock.Clock = {
  ...shiftedClock(0),
  sleep: (duration) => (Duration.toMillis(duration) >= 30_000 ? Effect.never : shiftedClock(0).sleep(duration))
}

let a: TestNode
let c: TestNode
let r: TestNode
let ownerA: Registered
let ownerC: Registered
let ownerR: Registered
let didA: string
let didC: string
let didR: string
let caraDid: string
/** A deposits at R through `aToR`; C reaches its relay through `cToR` (its SVC_RELAY_ENDPOINT). */
let aToR: RecordingProxy
let cToR: RecordingProxy
let nowhere: string
const MAX_QUEUED = 4

beforeAll(async () => {
  r = await startNode({ relayOn: true, relayMaxQueued: MAX_QUEUED })
  ;[aToR, cToR] = await Promise.all([recordingProxy(r.url), recordingProxy(r.url)])
  ;[a, c] = await Promise.all([startNode({}, { clock: wakeOnly }), startNode({ relayEndpoint: Option.some(cToR.url) })])
  ;[ownerA, ownerC, ownerR] = await Promise.all([registerOwner(a), registerOwner(c), registerOwner(r)])
  ;[didA, didC, didR] = (await Promise.all([capabilitiesOf(a), capabilitiesOf(c), capabilitiesOf(r)])).map(
    (profile) => profile.payload.did
  )
  caraDid = await beingDidOf(c, ownerC)
  nowhere = `http://127.0.0.1:${await freePort()}`
  // A knows C at an address nobody answers, and where C leaves word: its relay.
  const added = await run(
    ownerA.client.api.federation.addPeer({
      payload: { nodeDid: didC as never, endpoint: nowhere, name: "Cara's node", relay: aToR.url }
    })
  )
  expect(added.peer).toMatchObject({ status: "unreachable", relay: aToR.url })
  // C can dial A.
  expect(
    (await run(ownerC.client.api.federation.addPeer({ payload: { nodeDid: didA as never, endpoint: a.url } }))).verified
  ).toBe(true)
  // Three nodes start on a machine that may be busy.
}, 90_000)
afterAll(() => Promise.all([a.close(), c.close(), r.close(), aToR.close(), cToR.close()]))

const relayOf = (owner: Registered) => run(owner.client.api.federation.relayState())
const enrol = (owner: Registered) => run(owner.client.api.federation.enrolRelay())
const wire = (node: TestNode, path: string, body: unknown) => new Client(node.url).raw("POST", path, body)

describe("enrolment at a relay", () => {
  it("is refused until the relay's owner adds the node: relayDid stays null and lastError says why", async () => {
    const refusedEnrolment = await enrol(ownerC)
    expect(refusedEnrolment).toMatchObject({ accepted: false, relay: null, mailbox: null })
    const state = await relayOf(ownerC)
    expect(state).toMatchObject({ endpoint: cToR.url, relayDid: null, enrolled: false })
    expect(state.lastError).toContain("does not enrol that address")
    // A node that is no relay refuses to enrol anyone, and says so.
    const notRelay = await wire(a, "/api/federation/relay/enrolment", {
      ...collectRequest(newKeyPair(), didA),
      ack: undefined
    })
    expect(notRelay.body).toMatchObject({ accepted: false, reason: "This node is not a relay." })
  })

  it("enrols the node R's owner added: the relay's did pinned, the mailbox the node's own did, the limits announced", async () => {
    await run(ownerR.client.api.federation.addPeer({ payload: { nodeDid: didC as never, endpoint: nowhere } }))
    const enrolment = await enrol(ownerC)
    expect(enrolment).toMatchObject({
      v: 1,
      accepted: true,
      relay: didR,
      mailbox: didC,
      held: 0,
      limits: { maxQueued: MAX_QUEUED, maxDocumentBytes: 64 * 1024, holdSeconds: 604_800 }
    })
    const state = await relayOf(ownerC)
    expect(state).toMatchObject({
      endpoint: cToR.url,
      relayDid: didR,
      enrolled: true,
      lastError: null,
      limits: enrolment.limits
    })
    expect(Date.parse(state.expiresAt!) - Date.parse(state.enrolledAt!)).toBeGreaterThan(23 * 3600_000)

    const profileR = (await capabilitiesOf(r)).payload
    expect(profileR.runs.map((facility) => facility.name)).toEqual([
      "peer.hello",
      "peer.deliver",
      "peer.collect",
      "capabilities",
      "seed.knock",
      "seed.beat",
      "seed.act",
      "relay.enrolment",
      "relay.deposit",
      "relay.collect"
    ])
    expect(profileR).toMatchObject({ fronts: [didC], limits: { maxQueued: MAX_QUEUED }, delegatesTo: null })
    expect((await capabilitiesOf(c)).payload).toMatchObject({ delegatesTo: didR, fronts: [] })
    expect((await capabilitiesOf(a)).payload.runs.map((facility) => facility.name)).not.toContain("relay.deposit")
  })

  it("is the owner's alone", async () => {
    const anonymous = new Client(c.url)
    expect((await refused(anonymous.api.federation.relayState())).status).toBe(401)
    expect((await refused(anonymous.api.federation.enrolRelay())).status).toBe(401)
    const member = await registerMember(c, ownerC.client)
    expect((await refused(member.client.api.federation.relayState())).status).toBe(403)
    expect((await refused(member.client.api.federation.enrolRelay())).status).toBe(403)
  })
})

describe("a message to a node nobody can dial", () => {
  let threadA: string

  it("goes at once, woken by the queue: direct fails, it is left at C's relay", async () => {
    const conversation = await run(
      ownerA.client.api.federation.openConversation({
        payload: { peerDid: didC as never, remoteDid: caraDid as never, petname: "Cara" }
      })
    )
    threadA = conversation.threadId
    await run(
      ownerA.client.api.threads.postMessage({
        path: { id: threadA },
        payload: { content: "Through the relay: the word is quince." }
      })
    )
    // No flush: A's loops never tick on their own (wakeOnly), so only the wake sends it.
    const row = await until("the message delivered through the relay", async () =>
      (await run(ownerA.client.api.federation.outbox({ urlParams: { kind: "message", ...firstPage } }))).find(
        (r) => r.threadId === threadA && r.state === "delivered"
      )
    )
    expect(row).toMatchObject({ attempts: 1, lastError: null, sealed: true, peerDid: didC })
    expect(await relayOf(ownerA)).toMatchObject({ deposited: 1, endpoint: null, relayDid: null })
    expect(aToR.crossings.filter((crossing) => crossing.path === "/api/federation/relay/deposit")).toHaveLength(1)
  })

  it("is collected by C from its relay and lands in C's being's thread; flush counts it as relayed", async () => {
    const flushed = await run(ownerC.client.api.federation.flush())
    expect(flushed.relayed).toBe(1)
    const [conversation] = await run(ownerC.client.api.federation.listConversations({ urlParams: firstPage }))
    expect(conversation).toMatchObject({
      peerDid: didA,
      localBeingId: ownerC.being.id,
      remoteHandle: ownerA.registration.handle
    })
    const landed = await run(ownerC.client.api.threads.listMessages({ path: { id: conversation!.threadId } }))
    expect(landed.map((m) => m.content)).toEqual(["Through the relay: the word is quince."])
    expect(await relayOf(ownerC)).toMatchObject({ collected: 1, relayDid: didR })
    // The collection acknowledged it: nothing more waits at R.
    expect(await enrol(ownerC)).toMatchObject({ accepted: true, held: 0 })
  })

  it("crossed sealed: nothing readable reached the relay or came from it", () => {
    const crossings = [...aToR.crossings, ...cToR.crossings]
    expect(
      crossings.some(
        (crossing) =>
          crossing.path === "/api/federation/relay/collect" && JSON.parse(crossing.response).envelopes.length === 1
      )
    ).toBe(true)
    for (const crossing of crossings) expect(crossing.request + crossing.response).not.toContain("quince")
    const deposit = JSON.parse(
      aToR.crossings.find((crossing) => crossing.path === "/api/federation/relay/deposit")!.request
    )
    expect(deposit.envelope).toMatchObject({ type: "svc.envelope.sealed", protocol: 2, audience: didC })
  })

  it("sets collectedAt on the peer that collected, and nothing else of it", async () => {
    const [before] = (await run(ownerA.client.api.federation.listPeers({ urlParams: firstPage }))).filter(
      (peer) => peer.nodeDid === didC
    )
    await run(ownerC.client.api.federation.flush())
    const [after] = (await run(ownerA.client.api.federation.listPeers({ urlParams: firstPage }))).filter(
      (peer) => peer.nodeDid === didC
    )
    expect(after!.collectedAt).not.toBeNull()
    expect(after).toMatchObject({
      status: before!.status,
      endpoint: before!.endpoint,
      lastSeenAt: before!.lastSeenAt,
      verifiedAt: before!.verifiedAt
    })
  })
})

describe("the relay refuses", () => {
  const deposit = async (body: unknown) => {
    const answer = await wire(r, "/api/federation/relay/deposit", body)
    expect(answer.status).toBe(200)
    return answer.body as { accepted: boolean; code: string | null; digest: string | null }
  }
  const toCara = () => sealedEnvelope({ node: newKeyPair(), author: newKeyPair(), audience: didC, to: caraDid })

  it("tells a stranger's collect and enrolment nothing", async () => {
    const stranger = newKeyPair()
    const collected = await wire(r, "/api/federation/relay/collect", collectRequest(stranger, didR))
    expect(collected.body).toMatchObject({ accepted: false, node: null, envelopes: [], remaining: 0, acked: 0 })
    // A stranger that copies C's descriptor still cannot sign C's challenge.
    const impostor = {
      ...collectRequest(stranger, didR),
      descriptor: JSON.parse(
        cToR.crossings.find((crossing) => crossing.path === "/api/federation/relay/enrolment")!.request
      ).descriptor
    }
    expect((await wire(r, "/api/federation/relay/collect", impostor)).body).toMatchObject({
      accepted: false,
      envelopes: []
    })
    const { ack: _, ...enrolment } = collectRequest(stranger, didR)
    expect((await wire(r, "/api/federation/relay/enrolment", enrolment)).body).toMatchObject({
      accepted: false,
      relay: null,
      mailbox: null,
      node: null
    })
    // A recorded collect of C's replayed proves nothing: its challenge was used.
    const recorded = cToR.crossings.find((crossing) => crossing.path === "/api/federation/relay/collect")!
    expect((await wire(r, "/api/federation/relay/collect", JSON.parse(recorded.request))).body).toMatchObject({
      accepted: false,
      envelopes: []
    })
  })

  it("a deposit for a node not enrolled there, or not sealed", async () => {
    const elsewhere = sealedEnvelope({
      node: newKeyPair(),
      author: newKeyPair(),
      audience: newKeyPair().did,
      to: caraDid
    })
    expect(await deposit({ envelope: elsewhere.envelope })).toMatchObject({ accepted: false, code: "not_enrolled" })
    expect((await deposit({})).code).toBe("malformed")
    const { envelope } = toCara()
    expect((await deposit({ envelope: { ...envelope, protocol: 1, type: "svc.envelope" } })).code).toBe(
      "protocol_unsupported"
    )
    const forged = {
      ...envelope,
      descriptor: { ...envelope.descriptor, payload: { ...envelope.descriptor.payload, label: "forged" } }
    }
    expect((await deposit({ envelope: forged })).code).toBe("bad_descriptor")
  })

  it("holds a replayed envelope once, and none beyond the mailbox's limit", async () => {
    const first = toCara()
    expect(await deposit({ envelope: first.envelope })).toMatchObject({ accepted: true, code: null })
    expect(await deposit({ envelope: first.envelope })).toMatchObject({ accepted: false, code: "replayed" })
    for (let i = 1; i < MAX_QUEUED; i++) expect((await deposit({ envelope: toCara().envelope })).accepted).toBe(true)
    expect(await deposit({ envelope: toCara().envelope })).toMatchObject({ accepted: false, code: "mailbox_full" })
    expect(await enrol(ownerC)).toMatchObject({ held: MAX_QUEUED })
    // C collects them; its ladder refuses senders its owner never added, and each is acknowledged all the same.
    expect((await run(ownerC.client.api.federation.flush())).relayed).toBe(0)
    expect(await enrol(ownerC)).toMatchObject({ held: 0 })
    expect(await deposit({ envelope: first.envelope })).toMatchObject({ code: "replayed" })
  })

  it("pins the relay's did: another key answering at the same URL is refused", async () => {
    const impostor = newKeyPair()
    const server: Server = createServer((_, answer) => {
      const now = new Date()
      const profile = signPayload(
        {
          v: 1,
          type: "svc.node.capabilities",
          did: impostor.did,
          profile: "personal",
          runs: [{ name: "relay.enrolment", path: "/api/federation/relay/enrolment", protocol: 2 }],
          delegatesTo: null,
          fronts: [],
          seedProtocol: 1,
          limits: { maxDocumentBytes: 65536, maxQueued: 10 },
          issuedAt: now.toISOString(),
          expiresAt: new Date(now.getTime() + 3600_000).toISOString()
        },
        impostor.secretKey
      )
      answer.writeHead(200, { "content-type": "application/json" })
      answer.end(JSON.stringify(profile))
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    cToR.target = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    const before = cToR.crossings.length
    const answer = await enrol(ownerC)
    expect(answer).toMatchObject({ accepted: false, relay: null })
    expect(answer.reason).toContain(impostor.did)
    const state = await relayOf(ownerC)
    expect(state).toMatchObject({ relayDid: didR })
    expect(state.lastError).toContain("pinned")
    // Only the profile was read: nothing was sent to enrol there.
    expect(cToR.crossings.slice(before).map((crossing) => crossing.path)).toEqual(["/api/federation/capabilities"])
    cToR.target = r.url
    expect(await enrol(ownerC)).toMatchObject({ accepted: true, relay: didR })
    expect((await relayOf(ownerC)).lastError).toBeNull()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  })
})
