/**
 * Deliver's refusal ladder (docs/federation.md "Deliver's ladder"): every envelope gets a
 * receipt, refusals included, and the checks run cheapest first, so a stranger's flood costs a
 * schema decode and a table lookup, never a signature check or a key agreement. An accepted
 * document is stored once (a replay is refused as `replayed`) and lands in the recipient's
 * conversation with its author, in the same transaction; the thread's followers hear of it once
 * it committed. A square post (or its retraction) passes the same ladder and lands in (or leaves)
 * this node's square; everyone hears of it (`square.post`, `square.retracted`).
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { EventBus } from "../../kernel/events.ts"
import { PeerDirectory, SquareArrivals } from "./contract/ports.ts"
import {
  EnvelopeBody,
  type Envelope,
  PlainEnvelope,
  SealedEnvelope,
  type DeliveryReceipt,
  type DocumentCheck,
  type RefusalCode
} from "./contract/wire.ts"
import { Conversations } from "./conversations.ts"
import { Identities } from "./identities.ts"
import { MessagesRepository } from "./repositories/messages-repository.ts"
import { receivedRow } from "./rows.ts"
import { sealingKeyOf } from "./wire/did-key.ts"
import { fromUtf8, utf8 } from "./wire/encoding.ts"
import { openSeal } from "./wire/seal.ts"
import { digestOf, verifiedBy } from "./wire/signed.ts"
import { fnNamed } from "../../kernel/spans.ts"

const Body = Schema.Struct({ envelope: Schema.Unknown })
const Versioned = Schema.Struct({ protocol: Schema.Unknown, type: Schema.Unknown })
const decode = <A, I>(schema: Schema.Schema<A, I>) => Schema.decodeUnknownOption(schema)
const decodeBody = decode(Body)
const decodeVersioned = decode(Versioned)
const decodeSealed = decode(SealedEnvelope)
const decodePlain = decode(PlainEnvelope)
const decodeInner = decode(EnvelopeBody)

/** How stale a peer's `lastSeenAt` may be before a delivery from it writes it again. */
const SEEN_GRANULARITY_MS = 60_000
/** A replayed message, failing the landing's transaction so that it rolls back. */
const REPLAYED = Symbol("replayed")

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

export class Deliveries extends Effect.Service<Deliveries>()("federation/Deliveries", {
  dependencies: [Identities.Default, MessagesRepository.Default, Conversations.Default],
  effect: Effect.gen(function* () {
    const identities = yield* Identities
    const directory = yield* PeerDirectory
    const square = yield* SquareArrivals
    const messages = yield* MessagesRepository
    const conversations = yield* Conversations
    const bus = yield* EventBus
    const sql = yield* SqlClient.SqlClient
    const node = identities.node
    const sealing = sealingKeyOf(node.secretKey)

    const deliver = fnNamed("federation.deliver")(function* (input: unknown) {
      const at = new Date(yield* Clock.currentTimeMillis).toISOString()
      let digest: string | null = null
      let check: DocumentCheck | null = null
      const refuse = (code: RefusalCode, reason: string): DeliveryReceipt => ({
        accepted: false,
        digest,
        code,
        reason,
        at,
        check
      })

      // 1. shape, 2. protocol
      const body = decodeBody(input)
      if (Option.isNone(body)) return refuse("malformed", "The body is not { envelope }.")
      const versioned = decodeVersioned(body.value.envelope)
      if (Option.isNone(versioned))
        return refuse("malformed", "The envelope is not an object with a protocol and a type.")
      const { protocol, type } = versioned.value
      const expectedType = protocol === 2 ? "svc.envelope.sealed" : protocol === 1 ? "svc.envelope" : null
      if (expectedType === null || type !== expectedType) {
        return refuse(
          "protocol_unsupported",
          `Protocol ${String(protocol).slice(0, 10)} with type ${String(type).slice(0, 40)} is not spoken here; protocol 2 is, and protocol 1 inbound.`
        )
      }
      const decoded: Option.Option<Envelope> =
        protocol === 2 ? decodeSealed(body.value.envelope) : decodePlain(body.value.envelope)
      if (Option.isNone(decoded)) return refuse("malformed", `The envelope is not of protocol ${protocol}'s shape.`)
      const envelope = decoded.value
      const { descriptor, audience } = envelope

      // 3. which machine, 4. known or not
      if (audience !== node.did) return refuse("wrong_audience", "The envelope is for another machine.")
      const sender = descriptor.payload.did
      const peer = yield* directory.find(sender)
      if (Option.isNone(peer))
        return refuse("unknown_peer", "This node's owner has not added the sending node as a peer.")
      if (peer.value.status === "blocked")
        return refuse("blocked_peer", "This node's owner has blocked the sending node.")

      // 5. the descriptor's signature, then what the seal holds
      if (!verifiedBy(descriptor, sender)) return refuse("bad_descriptor", "The descriptor is not signed by its did.")
      let inner: unknown
      if (envelope.type === "svc.envelope.sealed") {
        const opened = openSeal(envelope.seal, sealing, utf8(audience))
        const text = opened === null ? null : fromUtf8(opened)
        if (text === null) return refuse("unsealable", "The seal does not open with this node's key.")
        inner = parseJson(text)
      } else {
        inner = envelope.body
      }
      const contents = decodeInner(inner)
      if (Option.isNone(contents))
        return refuse("unsealable", "The envelope's contents are not { message, passport, attestation }.")
      const { message, passport, attestation } = contents.value
      const messageDigest = digestOf(message)
      digest = messageDigest

      // 6. the message's own signature, then the passport and the attestation
      const author = message.payload.did
      const signedByAuthor = verifiedBy(message, author)
      check = {
        type: message.payload.type,
        signer: author,
        digest,
        valid: signedByAuthor,
        reason: signedByAuthor ? null : "The signature does not hold."
      }
      if (!signedByAuthor) return refuse("bad_signature", "The message is not signed by its author's did.")
      if (passport.payload.did !== sender || !verifiedBy(passport, sender)) {
        return refuse("passport_mismatch", "The passport is not signed by the sending node.")
      }
      if (passport.payload.subject !== author)
        return refuse("passport_mismatch", "The passport belongs to another being than the message's signer.")
      const attested = attestation.payload
      if (
        attested.did !== sender ||
        attested.aud !== node.did ||
        attested.about !== digest ||
        !verifiedBy(attestation, sender)
      ) {
        return refuse(
          "bad_attestation",
          "The attestation is not the sending node's, for this node, about this message."
        )
      }
      const document = message.payload
      // When the peer was last seen, to the minute: a burst of its deliveries writes it once.
      const lastSeen = peer.value.lastSeenAt
      const seen =
        lastSeen !== null && Date.parse(at) - Date.parse(lastSeen) < SEEN_GRANULARITY_MS
          ? Effect.void
          : directory.seen(sender, at)
      const delivered = {
        accepted: true,
        digest,
        code: null,
        reason: "Delivered.",
        at,
        check
      } satisfies DeliveryReceipt
      const inbound = (kind: "message" | "post" | "retraction", audienceDid: string) =>
        receivedRow(
          {
            kind,
            threadId: null,
            messageId: document.id,
            peerDid: sender,
            authorDid: author,
            audienceDid,
            digest: messageDigest,
            at
          },
          envelope.protocol === 2
        )

      // A square post or its retraction: for this node's square, so no recipient to find.
      if (document.type !== "svc.message") {
        const kind = document.type === "svc.post" ? "post" : "retraction"
        const row = inbound(kind, node.did)
        const outcome = yield* sql
          .withTransaction(
            Effect.gen(function* () {
              if (!(yield* messages.insert({ row, document: contents.value, localMessageId: null }))) return null
              if (document.type === "svc.post") {
                const post = yield* square.arrive({
                  peerDid: sender,
                  peerName: peer.value.name,
                  authorDid: author,
                  authorName: document.name,
                  remoteId: document.id,
                  content: document.body
                })
                return { post, retracted: Option.none<string>() }
              }
              const retracted = yield* square.retract({ peerDid: sender, authorDid: author, remoteId: document.id })
              return { post: Option.none(), retracted }
            })
          )
          .pipe(Effect.orDie)
        if (outcome === null) return refuse("replayed", "This document was delivered before; it is kept once.")
        if (Option.isSome(outcome.post))
          yield* bus.publish({ kind: "all" }, { type: "square.post", post: outcome.post.value })
        if (Option.isSome(outcome.retracted))
          yield* bus.publish({ kind: "all" }, { type: "square.retracted", postId: outcome.retracted.value })
        yield* seen
        return delivered
      }

      const recipient = yield* identities.beingOfDid(document.to)
      if (Option.isNone(recipient))
        return refuse("wrong_recipient", "The message is for a being that is not on this node.")
      // A seed being is a device the owner paired: it speaks only its own seed protocol to this node, has no
      // conversations, and receives nothing federated.
      if (recipient.value.seed)
        return refuse("seed_recipient", "The message is for a seed, which receives no federated messages.")

      // 7. once; then it lands in the recipient's thread. It lands first and its row is stored with where it landed,
      // in one statement: a replay's row is refused by the store, which rolls the landing back.
      const landed = yield* sql
        .withTransaction(
          Effect.gen(function* () {
            const threadMessage = yield* conversations.land({
              recipientId: recipient.value.beingId,
              peerDid: sender,
              authorDid: author,
              authorHandle: passport.payload.handle,
              body: document.body
            })
            const row = { ...inbound("message", document.to), threadId: threadMessage.threadId }
            const stored = yield* messages.insert({ row, document: contents.value, localMessageId: threadMessage.id })
            return stored ? threadMessage : yield* Effect.fail(REPLAYED)
          })
        )
        .pipe(
          Effect.catchIf(
            (error) => error === REPLAYED,
            () => Effect.succeed(null)
          ),
          Effect.orDie
        )
      if (landed === null) return refuse("replayed", "This message was delivered before; it is kept once.")
      yield* bus.publish(
        { kind: "topic", topic: `thread:${landed.threadId}` },
        { type: "message.created", message: landed }
      )
      yield* seen
      return delivered
    })

    return { deliver } as const
  })
}) {}
