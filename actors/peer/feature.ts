/**
 * The peer as the node lists it. `peerTags`: what others reach a peer through (`Peers`, and the
 * federation's `PeerDirectory`), over the entity's client and its table only, so they stand low
 * in the node, below the federation's services that read them. `peerFeature`: those with the
 * entity itself, which greets through the federation's `Handshake` and `PeerTransport`, so it
 * stands above them (under the federation's routes).
 */
import * as Layer from "effect/Layer"
import { PeerLive } from "./behaviour.ts"
import { PeerDirectoryLive } from "./peer-directory.ts"
import { PeersLive } from "./peers.ts"
import { PeersRepository } from "./peers-repository.ts"

export const peerTags = Layer.mergeAll(PeersLive, PeerDirectoryLive).pipe(Layer.provide(PeersRepository.Default))

export const peerFeature = Layer.mergeAll(PeerLive, peerTags)
