/**
 * The federation feature wired: the documents signed with the node's key, the wire routes'
 * services, conversations, the courier, the collector and the relay (both sides), and the ports
 * bound here (where the node is, the outbound transport, the conversations' threads).
 * `federationServices` is one layer value shared by the routes and by the threads' outbound
 * binding, so the node builds it once. The peers it reads (`PeerDirectory`) and edits (`Peers`)
 * are the peer actor's (actors/peer/), the seeds its seed routes call (`Seeds`) the seed actor's
 * (actors/seed/): the node provides them.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { NodeAddress } from "./contract/ports.ts"
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
import { SeedBeingsLive } from "./seed-beings.ts"

const NodeAddressLive = Layer.effect(
  NodeAddress,
  Effect.map(PublicOrigin, (origin) => ({
    endpoint: origin.url,
    label: new URL(origin.url).host,
    software: `svc-node/${hostVersion}`
  }))
)

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
  Layer.provide([PeerTransportLive, NodeAddressLive, SquareArrivalsLive, ListedHandlesLive, DirectoryCreditsLive])
)

/** A message posted in a conversation's thread goes to the outbox (threads call this port). */
const ThreadOutboundLive = Layer.effect(
  ThreadOutbound,
  Effect.map(Conversations, (conversations) => ({ posted: conversations.enqueue }))
).pipe(Layer.provide(federationServices))

/** A post written on the square goes to the peers the owner publishes to; a hidden or deleted one is retracted. */
const SquareOutboundLive = Layer.effect(
  SquareOutbound,
  Effect.map(SquarePosts, (posts) => ({ published: posts.published, retracted: posts.retracted }))
).pipe(Layer.provide(federationServices))

/**
 * What the peer and seed actors need of the federation: the node's side of a handshake (its key),
 * its way out to peers, and a seed's being. None reads the peers, so the peer actor stands above them.
 */
const actorPortsLive = Layer.mergeAll(HandshakeLive, PeerTransportLive, SeedBeingsLive).pipe(
  Layer.provide(NodeDocuments.Default),
  Layer.provide(NodeAddressLive)
)

/**
 * What the node lists of the federation: the outboxes behind the threads' and the square's optional
 * ports (they read the peer actor's `PeerDirectory`, bound below them), and the actors' ports.
 */
export const federationLive = Layer.mergeAll(ThreadOutboundLive, SquareOutboundLive, actorPortsLive)

export const federationFeature = Layer.mergeAll(CourierLoop, CollectorLoop, RelayLoop, DirectoryLoop).pipe(
  Layer.provideMerge(federationServices),
  Layer.provide([PeerTransportLive])
)
