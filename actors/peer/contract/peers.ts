/**
 * The owner's edits of a peer, each a message to that peer's actor, so a handshake and an edit
 * never interleave (the federation's owner routes call it). What the federation reads of the
 * peers is its own port, `PeerDirectory` (extensions/federation/contract/ports.ts), which the peer
 * binds too. Implemented in actors/peer/peers.ts; a full mailbox is the kernel's 503 `busy`.
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { Peer, PeerSession, PeerUpdate } from "../../../extensions/federation/contract/records.ts"
import type { ActorBusy } from "../../../kernel/contract/actor-errors.ts"
import type { PeerExists, PeerMissing } from "./errors.ts"

export interface PeersShape {
  /** Adds the peer and tries the handshake at once; an asleep peer is still added, as unreachable. */
  readonly add: (
    nodeDid: string,
    peer: { readonly endpoint: string; readonly name: string; readonly relay: string | null }
  ) => Effect.Effect<PeerSession, PeerExists | ActorBusy>
  /** The handshake again; nothing is sent to a blocked peer. */
  readonly greet: (nodeDid: string) => Effect.Effect<PeerSession, PeerMissing | ActorBusy>
  readonly update: (nodeDid: string, update: PeerUpdate) => Effect.Effect<Peer, PeerMissing | ActorBusy>
  /** Forgets the peer; false when there was none. */
  readonly remove: (nodeDid: string) => Effect.Effect<boolean, ActorBusy>
}

export class Peers extends Context.Tag("peer/Peers")<Peers, PeersShape>() {}
