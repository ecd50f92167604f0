/**
 * The federation's routes: the owner's peers (each change through the peer's `Peers` tag, a
 * message to that peer's actor, so a handshake and an edit never interleave) and the wire routes
 * other nodes call.
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { Peers } from "../../actors/peer/contract/peers.ts"
import { PeerDirectory } from "./contract/ports.ts"
import { Collections } from "./collect.ts"
import { Collector } from "./collector.ts"
import { Conversations } from "./conversations.ts"
import { Courier } from "./courier.ts"
import { Deliveries } from "./deliver.ts"
import { NodeDocuments } from "./documents.ts"
import type { OwnIdentity } from "./contract/records.ts"
import { Greetings } from "./handshake.ts"
import { CapabilityProfiles } from "./relay/capabilities.ts"
import { RelayClient } from "./relay/client.ts"
import { Relay } from "./relay/relay.ts"
import { DirectoryClient } from "./directory/client.ts"
import { Directory } from "./directory/directory.ts"
import { Identities } from "./identities.ts"
import { MessagesRepository } from "./repositories/messages-repository.ts"
import { HandleNotResolved, OwnNode, PeerAlreadyAdded, PeerNotFound } from "./contract/errors.ts"
import { CurrentSession } from "../accounts/contract/session.ts"
import { requireOwner } from "../accounts/contract/owner.ts"
import { apiOf } from "../../kernel/contract/node-api.ts"
import { FederationApi, FederationWireApi } from "./contract/api.ts"
import { federationFeature } from "./feature.ts"
import { fnNamed } from "../../kernel/spans.ts"

const noSuchPeer = () => new PeerNotFound({ message: "No peer with that node did." })

const ownerRoutes = HttpApiBuilder.group(apiOf(FederationApi), "federation", (handlers) =>
  Effect.gen(function* () {
    const peers = yield* Peers
    const directory = yield* PeerDirectory
    const messages = yield* MessagesRepository
    const documents = yield* NodeDocuments
    const conversations = yield* Conversations
    const courier = yield* Courier
    const collector = yield* Collector
    const relayClient = yield* RelayClient
    const identities = yield* Identities
    const directoryClient = yield* DirectoryClient

    const ownIdentity = fnNamed("federation.me")(function* (beingId: string) {
      const own = yield* identities.ofBeing(beingId)
      if (Option.isNone(own)) return yield* Effect.die(new Error("the session's being has no row"))
      return { beingId, handle: own.value.handle, did: own.value.did, nodeDid: documents.nodeDid } satisfies OwnIdentity
    })

    const owner = <A, E, R>(self: Effect.Effect<A, E, R>) => Effect.zipRight(requireOwner, self)
    /** The owner's routes that act as the owner's own being (a conversation is the caller's). */
    const asOwner = <A, E, R>(self: (beingId: string) => Effect.Effect<A, E, R>) =>
      Effect.flatMap(requireOwner, (session) => self(session.beingId))

    return (
      handlers
        .handle("listPeers", ({ urlParams }) => owner(directory.page(urlParams)))
        .handle("addPeer", ({ payload }) =>
          owner(
            Effect.gen(function* () {
              if (payload.nodeDid === documents.nodeDid) {
                return yield* Effect.fail(new OwnNode({ message: "That did is this node's own." }))
              }
              return yield* peers
                .add(payload.nodeDid, {
                  endpoint: payload.endpoint,
                  name: payload.name ?? new URL(payload.endpoint).host,
                  relay: payload.relay ?? null
                })
                .pipe(
                  Effect.catchTag("PeerExists", () =>
                    Effect.fail(new PeerAlreadyAdded({ message: "That node is a peer already; edit it or greet it." }))
                  )
                )
            })
          )
        )
        .handle("greetPeer", ({ path }) =>
          owner(peers.greet(path.id).pipe(Effect.catchTag("PeerMissing", () => Effect.fail(noSuchPeer()))))
        )
        .handle("updatePeer", ({ path, payload }) =>
          owner(peers.update(path.id, payload).pipe(Effect.catchTag("PeerMissing", () => Effect.fail(noSuchPeer()))))
        )
        .handle("removePeer", ({ path }) =>
          owner(
            Effect.gen(function* () {
              const removed = yield* peers.remove(path.id)
              if (!removed) return yield* Effect.fail(noSuchPeer())
              // Conversations stay: their threads keep their wire rows; these are the threads that lose their courier.
              const threadsAffected = yield* messages.threadsOfPeer(path.id)
              return { nodeDid: path.id, removed, threadsAffected }
            })
          )
        )
        .handle("listConversations", ({ urlParams }) => asOwner((beingId) => conversations.list(beingId, urlParams)))
        .handle("openConversation", ({ payload }) => asOwner((beingId) => conversations.open(beingId, payload)))
        .handle("federatedThread", ({ path }) => asOwner((beingId) => conversations.thread(beingId, path.id)))
        .handle("outbox", ({ urlParams: { kind, limit, offset } }) =>
          owner(messages.outbox({ kind: kind ?? "post", limit, offset }))
        )
        // Requeue and drain, then collect from every verified peer, then ask this node's relay.
        .handle("flush", () =>
          owner(
            Effect.gen(function* () {
              yield* directoryClient.run()
              const ran = yield* courier.flush()
              const collected = yield* collector.run()
              return { ...ran, collected, relayed: yield* relayClient.run() }
            })
          )
        )
        .handle("relayState", () => owner(relayClient.state()))
        .handle("enrolRelay", () => owner(relayClient.enrol()))
        .handle("me", () => Effect.flatMap(CurrentSession, (session) => ownIdentity(session.beingId)))
        .handle("directoryStatus", () => owner(directoryClient.status()))
        .handle("directoryRegister", () => owner(Effect.zipRight(directoryClient.register(), directoryClient.status())))
        .handle("addPeerByHandle", ({ payload }) =>
          owner(
            Effect.gen(function* () {
              const resolved = yield* directoryClient.resolve(payload.handle)
              if ("refused" in resolved) return yield* Effect.fail(new HandleNotResolved({ message: resolved.refused }))
              if (resolved.node === documents.nodeDid) {
                return yield* Effect.fail(new OwnNode({ message: "That handle is listed by this node." }))
              }
              return yield* peers
                .add(resolved.node, {
                  endpoint: resolved.endpoint,
                  name: payload.name ?? payload.handle,
                  relay: null
                })
                .pipe(
                  Effect.catchTag("PeerExists", () =>
                    Effect.fail(new PeerAlreadyAdded({ message: "That node is a peer already; edit it or greet it." }))
                  )
                )
            })
          )
        )
    )
  })
)

const wireRoutes = HttpApiBuilder.group(apiOf(FederationWireApi), "federationWire", (handlers) =>
  Effect.gen(function* () {
    const greetings = yield* Greetings
    const deliveries = yield* Deliveries
    const collections = yield* Collections
    const relay = yield* Relay
    const profiles = yield* CapabilityProfiles
    const directory = yield* Directory
    return handlers
      .handle("capabilities", () => profiles.profile)
      .handle("hello", ({ payload }) => greetings.answer(payload))
      .handle("deliver", ({ payload }) => deliveries.deliver(payload))
      .handle("collect", ({ payload }) => collections.answer(payload))
      .handle("relayEnrolment", ({ payload }) => relay.enrol(payload))
      .handle("relayDeposit", ({ payload }) => relay.deposit(payload))
      .handle("relayCollect", ({ payload }) => relay.collect(payload))
      .handle("directoryRegistration", ({ payload }) => directory.register(payload))
      .handle("directoryResolve", ({ payload }) => directory.resolve(payload.handle))
  })
)

export const FederationHandlers = Layer.mergeAll(ownerRoutes, wireRoutes).pipe(
  Layer.provide(federationFeature),
  Layer.provide(MessagesRepository.Default)
)
