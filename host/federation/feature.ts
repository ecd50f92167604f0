/**
 * The federation feature wired: the peer actor, the documents signed with the node's key, the
 * wire routes' services, and the ports bound here (where the node is, the outbound transport,
 * the peer table the wire routes consult).
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { PeerLive } from "../../actors/peer/behaviour.ts"
import { PeersRepository } from "../../actors/peer/peers-repository.ts"
import { NodeAddress, PeerDirectory } from "../../extensions/federation/contract/ports.ts"
import { Deliveries } from "../../extensions/federation/deliver.ts"
import { NodeDocuments } from "../../extensions/federation/documents.ts"
import { Greetings, HandshakeLive } from "../../extensions/federation/handshake.ts"
import { PublicOrigin } from "../origin.ts"
import { hostVersion } from "../version.ts"
import { PeerTransportLive } from "./transport.ts"

const NodeAddressLive = Layer.effect(
  NodeAddress,
  Effect.map(PublicOrigin, (origin) => ({ endpoint: origin.url, label: new URL(origin.url).host, software: `svc-node/${hostVersion}` }))
)

const PeerDirectoryLive = Layer.effect(
  PeerDirectory,
  Effect.map(PeersRepository, (peers) => ({
    find: peers.find,
    seen: (nodeDid, at) => peers.touch({ nodeDid, at })
  }))
).pipe(Layer.provide(PeersRepository.Default))

export const federationFeature = Layer.mergeAll(PeerLive, Greetings.Default, Deliveries.Default, NodeDocuments.Default).pipe(
  Layer.provideMerge(HandshakeLive),
  Layer.provideMerge(NodeDocuments.Default),
  Layer.provide([PeerDirectoryLive, PeerTransportLive, NodeAddressLive])
)
