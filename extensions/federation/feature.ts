/**
 * The federation feature wired: the peer actor, the documents signed with the node's key, the
 * wire routes' services, conversations, the courier, the collector and the relay (both sides), and the ports bound here
 * (where the node
 * is, the outbound transport, the peer table the wire routes consult, the conversations' threads).
 * `federationServices` is one layer value shared by the routes and by the threads' outbound
 * binding, so the node builds it once.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { PeerLive } from "../../actors/peer/behaviour.ts"
import { PeersRepository } from "../../actors/peer/peers-repository.ts"
import { PeerEntity } from "../../actors/peer/protocol.ts"
import { NodeAddress, PeerDirectory } from "./contract/ports.ts"
import { Collections } from "./collect.ts"
import { Collector, CollectorLoop } from "./collector.ts"
import { Conversations } from "./conversations.ts"
import { Courier, CourierLoop } from "./courier.ts"
import { Deliveries } from "./deliver.ts"
import { NodeDocuments } from "./documents.ts"
import { Greetings, HandshakeLive } from "./handshake.ts"
import { CapabilityProfiles } from "./relay/capabilities.ts"
import { RelayClient, RelayLoop } from "./relay/client.ts"
import { Relay } from "./relay/relay.ts"
import { DirectoryClient, DirectoryLoop, ListedHandles } from "./directory/client.ts"
import { Directory } from "./directory/directory.ts"
import { BeingRegistry } from "../accounts/contract/being-registry.ts"
import { Identities } from "./identities.ts"
import { SquarePosts } from "./square-posts.ts"
import { SquareOutbound } from "../souls/contract/square-outbound.ts"
import { ThreadOutbound } from "../threads/contract/ports.ts"
import { PublicOrigin } from "../../kernel/origin.ts"
import { hostVersion } from "../../kernel/version.ts"
import { DirectoryCreditsLive } from "./directory-credits.ts"
import { SquareArrivalsLive } from "./square-arrivals.ts"
import { PeerTransportLive } from "./transport.ts"

const NodeAddressLive = Layer.effect(
  NodeAddress,
  Effect.map(PublicOrigin, (origin) => ({
    endpoint: origin.url,
    label: new URL(origin.url).host,
    software: `svc-node/${hostVersion}`
  }))
)

const PeerDirectoryLive = Layer.effect(
  PeerDirectory,
  Effect.gen(function* () {
    const peers = yield* PeersRepository
    const peer = yield* PeerEntity.client
    return {
      list: peers.list(),
      find: peers.find,
      seen: (nodeDid, at) => peers.touch({ nodeDid, at }),
      collected: (nodeDid, at) => peers.touchCollected({ nodeDid, at }),
      // Through the peer's actor, so it never interleaves with a handshake or an edit.
      unreachable: (nodeDid, reason) =>
        peer(nodeDid)
          .Unreachable({ reason })
          .pipe(Effect.catchAllCause((cause) => Effect.logWarning("Could not mark a peer unreachable", cause)))
    }
  })
).pipe(Layer.provide(PeersRepository.Default))

/**
 * The handles this node lists at its directory: the owner's own, once there is an owner (docs/federation.md "The
 * directory").
 */
const ListedHandlesLive = Layer.effect(
  ListedHandles,
  Effect.map(BeingRegistry, (beings) => ({
    handles: Effect.map(beings.findOwner, (owner) => (owner._tag === "Some" ? [owner.value.handle] : []))
  }))
)

export const federationServices = Layer.mergeAll(
  Greetings.Default,
  Deliveries.Default,
  NodeDocuments.Default,
  Conversations.Default,
  Courier.Default,
  Collections.Default,
  Collector.Default,
  Relay.Default,
  RelayClient.Default,
  CapabilityProfiles.Default,
  Directory.Default,
  DirectoryClient.Default,
  SquarePosts.Default,
  Identities.Default
).pipe(
  Layer.provideMerge(HandshakeLive),
  Layer.provideMerge(NodeDocuments.Default),
  Layer.provide([
    PeerDirectoryLive,
    PeerTransportLive,
    NodeAddressLive,
    SquareArrivalsLive,
    ListedHandlesLive,
    DirectoryCreditsLive
  ])
)

/** A message posted in a conversation's thread goes to the outbox (threads call this port). */
export const ThreadOutboundLive = Layer.effect(
  ThreadOutbound,
  Effect.map(Conversations, (conversations) => ({ posted: conversations.enqueue }))
).pipe(Layer.provide(federationServices))

/** A post written on the square goes to the peers the owner publishes to; a hidden or deleted one is retracted. */
export const SquareOutboundLive = Layer.effect(
  SquareOutbound,
  Effect.map(SquarePosts, (posts) => ({ published: posts.published, retracted: posts.retracted }))
).pipe(Layer.provide(federationServices))

export const federationFeature = Layer.mergeAll(PeerLive, CourierLoop, CollectorLoop, RelayLoop, DirectoryLoop).pipe(
  Layer.provideMerge(federationServices),
  Layer.provide([PeerTransportLive])
)
