/** The peer's `Peers` (contract/peers.ts): each edit a message to that peer's actor. */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { refusedWhenBusy } from "../../kernel/actors/busy.ts"
import { Peers } from "./contract/peers.ts"
import { PeerEntity } from "./protocol.ts"

const busy = refusedWhenBusy("This peer")

export const PeersLive = Layer.effect(
  Peers,
  Effect.map(PeerEntity.client, (peer) => ({
    add: (nodeDid, added) => busy(peer(nodeDid).Add(added)),
    greet: (nodeDid) => busy(peer(nodeDid).Greet()),
    update: (nodeDid, update) => busy(peer(nodeDid).Update(update)),
    remove: (nodeDid) => busy(peer(nodeDid).Remove())
  }))
)
