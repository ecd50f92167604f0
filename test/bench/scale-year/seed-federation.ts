/**
 * The federation's year: peers, and a conversation with one being on each. A peer is written by
 * the peer actor's repository as a handshake leaves it (verified): adding one by its route dials
 * it, and these peers are nowhere. Their beings' messages arrive as real deliveries (sealed,
 * signed envelopes made here as test/support/federation.ts makes them, POSTed to the wire route,
 * run through the node's whole deliver ladder, landed in the owner's conversation); the owner's
 * answers are posted
 * in the conversation's thread, which signs and queues them in the outbox. The peer is blocked
 * meanwhile so the courier leaves them, and each is then settled as the courier settles a
 * delivery. The peers end `unreachable` (a dial that failed), so the collector, which asks every
 * verified peer each 30 seconds, does not dial 500 dead addresses while the routes are timed.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import { randomBytes } from "node:crypto"
import { PeersRepository } from "../../../actors/peer/peers-repository.ts"
import type { Peer } from "../../../extensions/federation/contract/records.ts"
import { MessagesRepository } from "../../../extensions/federation/repositories/messages-repository.ts"
import { Threads } from "../../../extensions/threads/threads.ts"
import { newKeyPair, type KeyPair } from "../../../extensions/federation/wire/did-key.ts"
import { utf8 } from "../../../extensions/federation/wire/encoding.ts"
import { canonical } from "../../../extensions/federation/wire/jcs.ts"
import { sealTo } from "../../../extensions/federation/wire/seal.ts"
import { digestOf, signPayload } from "../../../extensions/federation/wire/signed.ts"
import { Client, run } from "../../support/client.ts"
import { PEER_MESSAGES_IN, PEER_MESSAGES_OUT, planned, sentence } from "./data.ts"
import type { Person, SeedingNode } from "./node.ts"
import { readUpTo } from "../../../kernel/contract/page.ts"

const AT_ONCE = 4
/** Deliveries from one address before the next: the `wire` rate class allows 120 a minute from each. */
const PER_ADDRESS = 100

const at = () => new Date().toISOString()

/** A protocol-2 envelope from `peer`, its being `author` writing to `to` on the node `audience`. */
const sealedEnvelope = (peer: KeyPair, author: KeyPair, audience: string, to: string, body: string) => {
  const message = signPayload(
    { v: 1, type: "svc.message", did: author.did, to, id: randomBytes(12).toString("base64url"), body, at: at() },
    author.secretKey
  )
  const passport = signPayload(
    { v: 1, type: "svc.passport", did: peer.did, subject: author.did, handle: "author", issuedAt: at() },
    peer.secretKey
  )
  const attestation = signPayload(
    { v: 1, type: "svc.attestation", did: peer.did, aud: audience, about: digestOf(message), issuedAt: at() },
    peer.secretKey
  )
  const descriptor = signPayload(
    {
      v: 1,
      type: "svc.node.descriptor",
      did: peer.did,
      endpoint: "http://127.0.0.1:1",
      label: "bench",
      profile: "personal",
      software: "bench/1",
      serves: ["peer.deliver"],
      protocol: 2,
      issuedAt: at()
    },
    peer.secretKey
  )
  const seal = sealTo(audience, utf8(canonical({ message, passport, attestation })), utf8(audience))
  return { v: 1, type: "svc.envelope.sealed", protocol: 2, descriptor, audience, seal }
}

const inParallel = async (count: number, work: (index: number) => Promise<void>) => {
  for (let start = 0; start < count; start += AT_ONCE) {
    await Promise.all(Array.from({ length: Math.min(AT_ONCE, count - start) }, (_, offset) => work(start + offset)))
  }
}

export const seedFederation = async (node: SeedingNode, owner: Person) => {
  const { did: ownerDid, nodeDid } = await run(owner.client.api.federation.me())
  const ownerId = owner.being.id
  const now = new Date().toISOString()
  const peers = Array.from({ length: planned.peers }, (_, i) => {
    const key = newKeyPair()
    const peer: Peer = {
      nodeDid: key.did,
      endpoint: `http://127.0.0.1:1/peer-${i}`,
      name: `Peer ${i}`,
      status: "verified",
      label: `node ${i}`,
      profile: "personal",
      software: "bench/1",
      serves: ["peer.deliver"],
      addedAt: now,
      verifiedAt: now,
      lastSeenAt: now,
      collectedAt: null,
      relay: null,
      lastError: null,
      publish: false
    }
    return { key, author: newKeyPair(), peer }
  })
  const savePeers = (status: Peer["status"], lastError: string | null) =>
    node.runtime.runPromise(
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const repository = yield* PeersRepository
        yield* sql
          .withTransaction(
            Effect.forEach(peers, ({ peer }) => repository.save({ ...peer, status, lastError }), { discard: true })
          )
          .pipe(Effect.orDie)
      }).pipe(Effect.provide(PeersRepository.Default))
    )

  await node.runtime.runPromise(
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const repository = yield* PeersRepository
      yield* sql
        .withTransaction(Effect.forEach(peers, ({ peer }) => repository.insert(peer), { discard: true }))
        .pipe(Effect.orDie)
    }).pipe(Effect.provide(PeersRepository.Default))
  )

  let sender = new Client(node.url)
  await inParallel(peers.length * PEER_MESSAGES_IN, async (index) => {
    const { key, author } = peers[index % peers.length]!
    const envelope = sealedEnvelope(key, author, nodeDid, ownerDid, sentence(index, 20))
    if (index % PER_ADDRESS === 0) sender = new Client(node.url)
    const answer = await sender.raw("POST", "/api/federation/peer/deliver", { envelope })
    const receipt = answer.body as { readonly accepted?: boolean; readonly reason?: string }
    if (answer.status !== 200 || receipt.accepted !== true) {
      throw new Error(`a delivery was refused (${answer.status}): ${receipt.reason ?? answer.text.slice(0, 200)}`)
    }
  })

  // Every page: the list answers 50 at a time.
  const conversations = await Effect.runPromise(
    readUpTo(Number.POSITIVE_INFINITY, (urlParams) => owner.client.api.federation.listConversations({ urlParams }))
  )
  if (conversations.length !== peers.length) {
    throw new Error(`${conversations.length} conversations landed for ${peers.length} peers`)
  }
  await savePeers("blocked", null)
  await node.runtime.runPromise(
    Effect.gen(function* () {
      const threads = yield* Threads
      const wire = yield* MessagesRepository
      for (const [index, conversation] of conversations.entries()) {
        for (let message = 0; message < PEER_MESSAGES_OUT; message++) {
          yield* threads.post(ownerId, conversation.threadId, { content: sentence(index + message, 15) })
        }
        const at = new Date().toISOString()
        for (const row of yield* wire.listByThread(conversation.threadId)) {
          if (row.direction !== "out" || row.state !== "queued") continue
          yield* wire.settle({
            id: row.id,
            state: "delivered",
            attempts: 1,
            nextAttemptAt: null,
            lastError: null,
            updatedAt: at
          })
        }
      }
    }).pipe(Effect.orDie, Effect.provide(MessagesRepository.Default))
  )
  await savePeers("unreachable", "No answer from the peer's endpoint.")
  return {
    messages: peers.length * (PEER_MESSAGES_IN + PEER_MESSAGES_OUT),
    threadId: conversations[0]!.threadId
  }
}
