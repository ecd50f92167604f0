/**
 * Two real nodes on loopback talk through a recording proxy each way: a conversation opened on
 * one node, a message posted in its thread, the courier sealing it to the peer, deliver landing
 * it in the remote being's thread (a conversation made there too), and the reply coming back.
 * The proxy shows nothing readable crossed; a recorded envelope replayed or tampered with is
 * still refused; a peer asleep is tried again later, never flooded; a peer too old for
 * protocol 2 gets a stuck message, never one in the clear. The courier is woken when a message
 * is queued, so a message goes without a flush.
 */
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { beingDidOf, capabilitiesOf, collectRequest, newKeyPair } from "../support/federation.ts"
import { until } from "../support/until.ts"
import { LiveTab } from "../support/live.ts"
import { recordingProxy, type RecordingProxy } from "../support/recording-proxy.ts"
import { movableClock } from "../support/shifted-clock.ts"
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
let adaDid: string
let boDid: string
/** A reaches B through `toB`; B reaches A through `toA`. */
let toA: RecordingProxy
let toB: RecordingProxy
const clockA = movableClock()

beforeAll(async () => {
  ;[a, b] = await Promise.all([startNode({}, { clock: clockA }), startNode()])
  ;[ownerA, ownerB] = await Promise.all([registerOwner(a), registerOwner(b)])
  ;[didA, didB] = (await Promise.all([capabilitiesOf(a), capabilitiesOf(b)])).map((profile) => profile.payload.did)
  ;[toA, toB] = await Promise.all([recordingProxy(a.url), recordingProxy(b.url)])
  ;[adaDid, boDid] = await Promise.all([beingDidOf(a, ownerA), beingDidOf(b, ownerB)])
  await run(
    ownerA.client.api.federation.addPeer({ payload: { nodeDid: didB as never, endpoint: toB.url, name: "Bo's node" } })
  )
  expect(
    (await run(ownerB.client.api.federation.addPeer({ payload: { nodeDid: didA as never, endpoint: toA.url } })))
      .verified
  ).toBe(true)
  expect((await run(ownerA.client.api.federation.greetPeer({ path: { id: didB } }))).verified).toBe(true)
})
afterAll(() => Promise.all([a.close(), b.close(), toA.close(), toB.close()]))

const flush = (owner: Registered) => run(owner.client.api.federation.flush())
const post = (owner: Registered, threadId: string, content: string) =>
  run(owner.client.api.threads.postMessage({ path: { id: threadId }, payload: { content } }))
const outbox = (owner: Registered) =>
  run(owner.client.api.federation.outbox({ urlParams: { kind: "message", ...firstPage } }))

describe("a federated conversation", () => {
  let threadA: string
  let threadB: string

  it("is opened by did and petname, on a direct thread of the owner's own; a local did is a 400", async () => {
    const conversation = await run(
      ownerA.client.api.federation.openConversation({
        payload: { peerDid: didB as never, remoteDid: boDid as never, petname: "Bo" }
      })
    )
    expect(conversation).toMatchObject({
      peerDid: didB,
      peerName: "Bo's node",
      remoteDid: boDid,
      remoteCurrent: true,
      petname: "Bo",
      localBeingId: ownerA.being.id,
      queued: 0,
      stuck: 0
    })
    threadA = conversation.threadId
    const [thread] = (
      await run(ownerA.client.api.threads.listThreads({ urlParams: { kind: "direct", ...firstPage } }))
    ).filter((t) => t.id === threadA)
    expect(thread).toMatchObject({ kind: "direct", title: "Bo", participants: [ownerA.being.id] })
    const again = await run(
      ownerA.client.api.federation.openConversation({ payload: { peerDid: didB as never, remoteDid: boDid as never } })
    )
    expect(again.threadId).toBe(threadA)

    const local = await refused(
      ownerA.client.api.federation.openConversation({ payload: { peerDid: didB as never, remoteDid: adaDid as never } })
    )
    expect([local.status, local.body.error]).toEqual([400, "remote_is_local"])
    const noPeer = await refused(
      ownerA.client.api.federation.openConversation({
        payload: { peerDid: newKeyPair().did as never, remoteDid: boDid as never }
      })
    )
    expect([noPeer.status, noPeer.body.error]).toEqual([404, "peer_not_found"])
    const member = await registerMember(a, ownerA.client)
    expect((await refused(member.client.api.federation.listConversations({ urlParams: firstPage }))).status).toBe(403)
  })

  it("sends a message posted in the thread through the outbox, sealed, into the remote being's thread", async () => {
    const sent = await post(ownerA, threadA, "Hello Bo: the word is tangerine.")
    // Queued, and the courier woken at once: no flush needed.
    const row = await until("the message delivered", async () =>
      (await outbox(ownerA)).find((r) => r.messageId === sent.id && r.state === "delivered")
    )
    expect(row).toMatchObject({
      direction: "out",
      kind: "message",
      threadId: threadA,
      peerDid: didB,
      authorDid: adaDid,
      audienceDid: boDid,
      sealed: true,
      attempts: 1,
      lastError: null
    })
    expect((await run(ownerA.client.api.federation.listConversations({ urlParams: firstPage })))[0]).toMatchObject({
      queued: 0
    })
    expect(await flush(ownerA)).toMatchObject({ attempted: 0, requeued: 0, collected: 0, relayed: 0 })

    const [there] = await run(ownerB.client.api.federation.listConversations({ urlParams: firstPage }))
    expect(there).toMatchObject({
      peerDid: didA,
      remoteDid: adaDid,
      remoteHandle: ownerA.registration.handle,
      localBeingId: ownerB.being.id,
      petname: null
    })
    threadB = there!.threadId
    const landed = await run(ownerB.client.api.threads.listMessages({ path: { id: threadB } }))
    expect(landed.map((m) => [m.content, m.authorId, m.role])).toEqual([
      ["Hello Bo: the word is tangerine.", adaDid, "user"]
    ])
    const [inbox] = await run(ownerB.client.api.threads.listThreads({ urlParams: { kind: "direct", ...firstPage } }))
    expect(inbox).toMatchObject({
      id: threadB,
      title: ownerA.registration.handle,
      preview: "Hello Bo: the word is tangerine."
    })
  })

  it("publishes message.created on the thread's topic on both sides, and the reply comes back", async () => {
    const tabB = await LiveTab.open(b, ownerB.client)
    tabB.send({ type: "subscribe", topic: `thread:${threadB}` })
    await tabB.nextOf("subscribed")
    await post(ownerA, threadA, "Still there?")
    await flush(ownerA)
    expect((await tabB.nextOf("message.created")).message).toMatchObject({
      threadId: threadB,
      content: "Still there?",
      authorId: adaDid
    })

    const tabA = await LiveTab.open(a, ownerA.client)
    tabA.send({ type: "subscribe", topic: `thread:${threadA}` })
    await tabA.nextOf("subscribed")
    await post(ownerB, threadB, "Yes: and mine is persimmon.")
    expect((await tabA.nextOf("message.created")).message).toMatchObject({
      threadId: threadA,
      content: "Yes: and mine is persimmon.",
      authorId: boDid
    })
    tabA.socket.close()
    tabB.socket.close()
  })

  it("shows each message's provenance and the wire rows", async () => {
    const view = await run(ownerA.client.api.federation.federatedThread({ path: { id: threadA } }))
    expect(view.conversation).toMatchObject({ threadId: threadA, remoteDid: boDid, queued: 0, stuck: 0 })
    const messages = await run(ownerA.client.api.threads.listMessages({ path: { id: threadA } }))
    expect(view.messages.map((p) => [p.messageId, p.direction, p.authorDid, p.sealed, p.verified, p.state])).toEqual([
      [messages[0]!.id, "out", adaDid, true, true, "delivered"],
      [messages[1]!.id, "out", adaDid, true, true, "delivered"],
      [messages[2]!.id, "in", boDid, true, true, "received"]
    ])
    expect(view.wire.map((row) => row.peerDid)).toEqual([didB, didB, didB])
    const missing = await refused(ownerB.client.api.federation.federatedThread({ path: { id: threadA } }))
    expect([missing.status, missing.body.error]).toEqual([404, "conversation_not_found"])
  })

  it("crossed the wire sealed: nothing readable on the proxies", () => {
    const delivered = [...toA.crossings, ...toB.crossings].filter((c) => c.path === "/api/federation/peer/deliver")
    expect(delivered).toHaveLength(3)
    for (const crossing of [...toA.crossings, ...toB.crossings]) {
      for (const secret of ["tangerine", "persimmon", "Still there", "Hello Bo"])
        expect(crossing.request + crossing.response).not.toContain(secret)
    }
    for (const crossing of delivered)
      expect(JSON.parse(crossing.request).envelope).toMatchObject({ type: "svc.envelope.sealed", protocol: 2 })
  })

  it("a recorded envelope replayed is accepted once; tampered with, it does not open", async () => {
    const recorded = JSON.parse(toB.crossings.find((c) => c.path === "/api/federation/peer/deliver")!.request)
    const wire = new Client(b.url)
    const replay = await wire.raw("POST", "/api/federation/peer/deliver", recorded)
    expect(replay.body).toMatchObject({ accepted: false, code: "replayed" })
    const ct: string = recorded.envelope.seal.ct
    const tampered = {
      envelope: {
        ...recorded.envelope,
        seal: { ...recorded.envelope.seal, ct: ct.slice(0, 30) + (ct[30] === "A" ? "B" : "A") + ct.slice(31) }
      }
    }
    expect((await wire.raw("POST", "/api/federation/peer/deliver", tampered)).body).toMatchObject({
      accepted: false,
      code: "unsealable"
    })
    expect(await run(ownerB.client.api.threads.listMessages({ path: { id: threadB } }))).toHaveLength(3)
  })

  it("waits for a peer that is asleep, without flooding it, and delivers once it is back", async () => {
    // B cannot reach A either meanwhile, so its own collector (every 30 s) cannot fetch the message first.
    toB.asleep = true
    toA.asleep = true
    await post(ownerA, threadA, "Are you awake?")
    // The woken courier tried once and failed: the row waits 30 s.
    const waiting = await until("the first attempt", async () => {
      const [row] = await outbox(ownerA)
      return row?.attempts === 1 ? row : undefined
    })
    expect(waiting).toMatchObject({ state: "queued", attempts: 1 })
    expect(waiting.lastError).not.toBeNull()
    expect(Date.parse(waiting.nextAttemptAt!) - Date.parse(waiting.updatedAt)).toBe(30_000)
    // Not due yet: a flush now sends nothing.
    expect(await flush(ownerA)).toMatchObject({ attempted: 0, unreachable: 0 })
    // A message queued meanwhile joins the peer's wait: the dead peer is not dialled sooner for it.
    await post(ownerA, threadA, "Anyone?")
    const [joined] = await outbox(ownerA)
    expect(joined).toMatchObject({ state: "queued", attempts: 0, nextAttemptAt: waiting.nextAttemptAt })
    expect(await flush(ownerA)).toMatchObject({ attempted: 0, unreachable: 0 })
    expect((await run(ownerA.client.api.federation.listConversations({ urlParams: firstPage })))[0]).toMatchObject({
      queued: 2
    })

    toB.asleep = false
    toA.asleep = false
    clockA.ahead += 31_000
    expect(await flush(ownerA)).toMatchObject({ attempted: 2, delivered: 2 })
    const landed = await run(ownerB.client.api.threads.listMessages({ path: { id: threadB } }))
    expect(landed.slice(-2).map((m) => m.content)).toEqual(["Are you awake?", "Anyone?"])
  })
})

describe("collect", () => {
  it("hands a node nobody can dial what waits for it, sealed, and delivers it once acknowledged", async () => {
    const [conversation] = await run(ownerA.client.api.federation.listConversations({ urlParams: firstPage }))
    const [there] = await run(ownerB.client.api.federation.listConversations({ urlParams: firstPage }))
    toB.asleep = true
    const sent = await post(ownerA, conversation!.threadId, "Collected, not delivered: kumquat.")
    await until("the message queued after one attempt", async () =>
      (await outbox(ownerA)).find((r) => r.messageId === sent.id && r.attempts === 1 && r.state === "queued")
    )

    expect(await flush(ownerB)).toMatchObject({ collected: 1 })
    const landed = await run(ownerB.client.api.threads.listMessages({ path: { id: there!.threadId } }))
    expect(landed.at(-1)).toMatchObject({ content: "Collected, not delivered: kumquat.", authorId: adaDid })
    // The next collect of that run acknowledged it: delivered on A.
    expect((await outbox(ownerA))[0]).toMatchObject({ state: "delivered" })

    const collects = toA.crossings.filter((c) => c.path === "/api/federation/peer/collect")
    expect(collects.length).toBeGreaterThanOrEqual(2)
    for (const crossing of collects) expect(crossing.request + crossing.response).not.toContain("kumquat")
    expect(
      JSON.parse(collects.find((c) => JSON.parse(c.response).envelopes.length > 0)!.response).envelopes[0].type
    ).toBe("svc.envelope.sealed")
    toB.asleep = false

    // A recorded collect replayed is refused (its challenge was used), and tells nothing.
    const replayed = await new Client(a.url).raw(
      "POST",
      "/api/federation/peer/collect",
      JSON.parse(collects[0]!.request)
    )
    expect(replayed.body).toMatchObject({ accepted: false, node: null, envelopes: [], remaining: 0, acked: 0 })
    const old = { ...JSON.parse(collects[0]!.request), protocol: 1 }
    expect((await new Client(a.url).raw("POST", "/api/federation/peer/collect", old)).body).toMatchObject({
      accepted: false,
      envelopes: []
    })
  })

  it("tells a stranger nothing, and bounds challenges and acks", async () => {
    const stranger = newKeyPair()
    const wire = new Client(a.url)
    const answer = await wire.raw("POST", "/api/federation/peer/collect", collectRequest(stranger, didA))
    expect(answer.status).toBe(200)
    expect(answer.body).toMatchObject({ accepted: false, node: null, envelopes: [], remaining: 0, acked: 0 })
    const request = collectRequest(
      stranger,
      didA,
      Array.from({ length: 33 }, () => "A".repeat(43))
    )
    expect((await wire.raw("POST", "/api/federation/peer/collect", request)).status).toBe(400)
    expect(
      (await wire.raw("POST", "/api/federation/peer/collect", { ...collectRequest(stranger, didA), challenges: [] }))
        .status
    ).toBe(400)
  })
})

describe("a peer too old for protocol 2", () => {
  it("gets a stuck message, never one in the clear", async () => {
    const bodies: Array<string> = []
    const old = createServer((incoming, outgoing) => {
      const chunks: Array<Buffer> = []
      incoming.on("data", (chunk: Buffer) => chunks.push(chunk))
      incoming.on("end", () => {
        bodies.push(Buffer.concat(chunks).toString("utf8"))
        outgoing.writeHead(200, { "content-type": "application/json" })
        outgoing.end(
          JSON.stringify(
            incoming.url === "/api/federation/peer/deliver"
              ? {
                  accepted: false,
                  digest: null,
                  code: "protocol_unsupported",
                  reason: "protocol 1 only",
                  at: new Date().toISOString(),
                  check: null
                }
              : { nope: true }
          )
        )
      })
    })
    await new Promise<void>((resolve) => old.listen(0, "127.0.0.1", resolve))
    const oldNode = newKeyPair()
    await run(
      ownerA.client.api.federation.addPeer({
        payload: { nodeDid: oldNode.did as never, endpoint: `http://127.0.0.1:${(old.address() as AddressInfo).port}` }
      })
    )
    const { threadId } = await run(
      ownerA.client.api.federation.openConversation({
        payload: { peerDid: oldNode.did as never, remoteDid: newKeyPair().did as never }
      })
    )
    await post(ownerA, threadId, "Only sealed, ever.")
    // The courier, woken by the queue, tries it once; a flush would put it back in the queue.
    const row = await until("the message stuck", async () =>
      (await outbox(ownerA)).find((r) => r.threadId === threadId && r.state === "stuck")
    )
    expect(row.lastError).toContain("protocol 2")
    const delivered = bodies.filter((body) => body.includes("envelope"))
    expect(delivered).toHaveLength(1)
    expect(delivered[0]).not.toContain("Only sealed")
    expect(JSON.parse(delivered[0]!).envelope.type).toBe("svc.envelope.sealed")
    expect(
      (await run(ownerA.client.api.federation.listConversations({ urlParams: firstPage }))).find(
        (c) => c.threadId === threadId
      )
    ).toMatchObject({ stuck: 1, queued: 0 })
    await new Promise<void>((resolve) => old.close(() => resolve()))
  })
})
