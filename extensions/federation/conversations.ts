/**
 * Conversations with beings on peer nodes. The local half is an ordinary direct thread whose only
 * participant here is the local being; the conversation row says who is on the other side. A
 * message the local being posts in that thread (the ordinary thread route) is signed by the
 * being's own key at once, passported and attested by the node, and queued for the courier; a
 * message that arrives lands in the same thread (deliver.ts calls `land`).
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { ConversationNotFound, PeerNotFound, RemoteIsLocal } from "./contract/errors.ts"
import type { Page } from "../../kernel/contract/page.ts"
import { nowIso } from "../../kernel/time.ts"
import type { Message } from "../threads/contract/records.ts"
import { ConversationThreads, PeerDirectory } from "./contract/ports.ts"
import type { FederatedConversation, FederatedThread, NewConversation } from "./contract/records.ts"
import type { Did, EnvelopeBody } from "./contract/wire.ts"
import { Courier } from "./courier.ts"
import { NodeDocuments } from "./documents.ts"
import { Identities } from "./identities.ts"
import { ConversationsRepository, type StoredConversation } from "./repositories/conversations-repository.ts"
import { MessagesRepository } from "./repositories/messages-repository.ts"
import { queuedRow } from "./rows.ts"
import { digestOf, signPayload } from "./wire/signed.ts"
import { fnNamed } from "../../kernel/spans.ts"

/** A did shortened for a title, when nobody named the being. */
const shortDid = (did: string) => `${did.slice(0, 14)}…${did.slice(-4)}`

const noConversation = (id: string) =>
  new ConversationNotFound({
    message: "That thread is not one of your federated conversations.",
    details: { id }
  })

export class Conversations extends Effect.Service<Conversations>()("federation/Conversations", {
  dependencies: [
    Identities.Default,
    NodeDocuments.Default,
    ConversationsRepository.Default,
    MessagesRepository.Default,
    Courier.Default
  ],
  effect: Effect.gen(function* () {
    const identities = yield* Identities
    const documents = yield* NodeDocuments
    const conversations = yield* ConversationsRepository
    const messages = yield* MessagesRepository
    const directory = yield* PeerDirectory
    const threads = yield* ConversationThreads
    const courier = yield* Courier

    /**
     * Conversations as the owner sees them, each read once for all of them whatever their number (a page): their
     * peers in one statement, their outbox counts in one.
     */
    const viewAll = (rows: ReadonlyArray<StoredConversation>) =>
      Effect.gen(function* () {
        const peers = new Map(
          (yield* directory.findMany([...new Set(rows.map((row) => row.peerDid))])).map((peer) => [peer.nodeDid, peer])
        )
        const counts = new Map(
          (yield* messages.countsOfThreads(rows.map((row) => row.threadId))).map((count) => [count.threadId, count])
        )
        return rows.map((row): FederatedConversation => {
          const peer = peers.get(row.peerDid)
          const count = counts.get(row.threadId)
          return {
            ...row,
            peerName: peer?.name ?? null,
            remoteCurrent: peer !== undefined && peer.status !== "blocked",
            queued: count?.queued ?? 0,
            stuck: count?.stuck ?? 0
          }
        })
      })

    /** One conversation as the owner sees it: a list of one. */
    const view = (row: StoredConversation) => Effect.map(viewAll([row]), ([conversation]) => conversation!)

    /** The conversation for these parties, made (with its thread) when there is none. */
    const ensure = (
      parties: { readonly localBeingId: string; readonly peerDid: string; readonly remoteDid: string },
      names: {
        readonly petname: string | null
        readonly remoteHandle: string | null
      }
    ) =>
      Effect.gen(function* () {
        const existing = yield* conversations.find(parties)
        if (Option.isSome(existing)) {
          const { petname, remoteHandle } = names
          if (
            (petname !== null && petname !== existing.value.petname) ||
            (remoteHandle !== null && remoteHandle !== existing.value.remoteHandle)
          ) {
            yield* conversations.rename({ threadId: existing.value.threadId, petname, remoteHandle })
            return {
              ...existing.value,
              petname: petname ?? existing.value.petname,
              remoteHandle: remoteHandle ?? existing.value.remoteHandle
            }
          }
          return existing.value
        }
        const title = names.petname ?? names.remoteHandle ?? shortDid(parties.remoteDid)
        const threadId = yield* threads.open(parties.localBeingId, title)
        const row: StoredConversation = { ...parties, threadId, ...names, createdAt: yield* nowIso }
        yield* conversations.insert(row)
        return row
      })

    /** A page of the being's conversations, oldest first. */
    const list = fnNamed("federation.listConversations")(function* (beingId: string, page: Page) {
      return yield* viewAll(yield* conversations.listFor({ beingId, ...page }))
    })

    const open = fnNamed("federation.openConversation")(function* (beingId: string, input: NewConversation) {
      if (input.remoteDid === documents.nodeDid || Option.isSome(yield* identities.beingOfDid(input.remoteDid))) {
        return yield* new RemoteIsLocal({
          message: "That did is on this node; talk to that being in an ordinary thread."
        })
      }
      if (Option.isNone(yield* directory.find(input.peerDid))) {
        return yield* new PeerNotFound({
          message: "No peer with that node did; add the node as a peer first."
        })
      }
      const row = yield* ensure(
        { localBeingId: beingId, peerDid: input.peerDid, remoteDid: input.remoteDid },
        { petname: input.petname ?? null, remoteHandle: null }
      )
      return yield* view(row)
    })

    /** The conversation of a thread, where each of its messages came from, and its wire rows. */
    const thread = fnNamed("federation.thread")(function* (beingId: string, threadId: string) {
      const row = yield* conversations.byThread(threadId)
      if (Option.isNone(row) || row.value.localBeingId !== beingId) return yield* noConversation(threadId)
      const wire = yield* messages.listByThread(threadId)
      return {
        conversation: yield* view(row.value),
        messages: wire.flatMap(({ localMessageId, ...rest }) =>
          localMessageId === null
            ? []
            : [
                {
                  messageId: localMessageId,
                  direction: rest.direction,
                  authorDid: rest.authorDid,
                  digest: rest.digest,
                  sealed: rest.sealed,
                  verified: rest.verified,
                  state: rest.state,
                  at: rest.createdAt
                }
              ]
        ),
        wire: wire.map(({ localMessageId: _, ...rest }) => rest)
      } satisfies FederatedThread
    })

    /**
     * A message posted in a thread: when the thread is a conversation's and the local being wrote
     * it, it is signed now and queued for the peer (due at once, or when the peer's backoff
     * ends), and the courier is woken to send it.
     */
    const enqueue = fnNamed("federation.enqueue")(function* (message: Message) {
      const row = yield* conversations.byThread(message.threadId)
      if (Option.isNone(row) || message.authorId !== row.value.localBeingId) return
      const { peerDid, remoteDid } = row.value
      const author = yield* identities.ofBeing(row.value.localBeingId)
      if (Option.isNone(author)) return
      const signed = signPayload(
        {
          v: 1 as const,
          type: "svc.message" as const,
          did: author.value.did as Did,
          to: remoteDid as Did,
          id: message.id,
          body: message.content,
          at: message.createdAt
        },
        author.value.secretKey
      )
      const digest = digestOf(signed)
      const document: EnvelopeBody = {
        message: signed,
        passport: yield* documents.passport(author.value),
        attestation: yield* documents.attestation(peerDid, digest)
      }
      const at = yield* nowIso
      // A peer in backoff is not dialled sooner for a new message: it joins the peer's wait.
      const backoff = yield* messages.backoffOf(peerDid)
      const due = Option.match(backoff, { onNone: () => at, onSome: ({ until }) => (until > at ? until : at) })
      yield* messages.insert({
        row: {
          ...queuedRow({
            kind: "message",
            threadId: message.threadId,
            messageId: message.id,
            peerDid,
            authorDid: author.value.did,
            audienceDid: remoteDid,
            digest,
            at
          }),
          nextAttemptAt: due
        },
        document,
        localMessageId: message.id
      })
      yield* courier.wake
    })

    /**
     * A delivered message lands in the recipient's conversation with its author (made, with its
     * thread, the first time that being writes); answers the thread message it became.
     */
    const land = fnNamed("federation.land")(function* (input: {
      readonly recipientId: string
      readonly peerDid: string
      readonly authorDid: string
      readonly authorHandle: string
      readonly body: string
    }) {
      const row = yield* ensure(
        { localBeingId: input.recipientId, peerDid: input.peerDid, remoteDid: input.authorDid },
        { petname: null, remoteHandle: input.authorHandle }
      )
      return yield* threads.insert({ threadId: row.threadId, authorDid: input.authorDid, content: input.body })
    })

    return { list, open, thread, enqueue, land } as const
  })
}) {}
