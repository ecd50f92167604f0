/**
 * The peer actor's messages. One entity per peer (its id is the peer's node did) handles them
 * one at a time, so a handshake and an edit of the same peer never interleave: the state a
 * greeting writes is the state the owner's last edit left. All are volatile: each is a question
 * its caller (an owner's request) waits on and can ask again.
 */
import * as Entity from "@effect/cluster/Entity"
import * as Rpc from "@effect/rpc/Rpc"
import * as Schema from "effect/Schema"
import { Peer, PeerSession, PeerUpdate } from "../../extensions/federation/contract/records.ts"
import { PeerExists, PeerMissing } from "./contract/errors.ts"

export const PeerEntity = Entity.make("Peer", [
  /** Adds the peer and tries the handshake at once; an asleep peer is still added, as unreachable. */
  Rpc.make("Add", {
    payload: { endpoint: Schema.String, name: Schema.String, relay: Schema.NullOr(Schema.String) },
    success: PeerSession,
    error: PeerExists
  }),
  /** The handshake again; nothing is sent to a blocked peer. */
  Rpc.make("Greet", { success: PeerSession, error: PeerMissing }),
  Rpc.make("Update", { payload: PeerUpdate, success: Peer, error: PeerMissing }),
  /**
   * The courier gave up on the peer after about two days of silence: unreachable (a blocked one
   * stays blocked); nothing when the peer is gone.
   */
  Rpc.make("Unreachable", { payload: { reason: Schema.String } }),
  /** Forgets the peer; false when there was none. */
  Rpc.make("Remove", { success: Schema.Boolean })
])
