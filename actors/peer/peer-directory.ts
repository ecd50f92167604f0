/**
 * The federation's `PeerDirectory` port (extensions/federation/contract/ports.ts) bound to the
 * peer's table, and to its actor for what the actor decides.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { PeerDirectory } from "../../extensions/federation/contract/ports.ts"
import { PeersRepository } from "./peers-repository.ts"
import { PeerEntity } from "./protocol.ts"

export const PeerDirectoryLive = Layer.effect(
  PeerDirectory,
  Effect.gen(function* () {
    const peers = yield* PeersRepository
    const peer = yield* PeerEntity.client
    return {
      list: peers.list(),
      page: peers.listPage,
      find: peers.find,
      findMany: peers.findMany,
      seen: (nodeDid, at) => peers.touch({ nodeDid, at }),
      collected: (nodeDid, at) => peers.touchCollected({ nodeDid, at }),
      // Through the peer's actor, so it never interleaves with a handshake or an edit.
      unreachable: (nodeDid, reason) =>
        peer(nodeDid)
          .Unreachable({ reason })
          .pipe(Effect.catchAllCause((cause) => Effect.logWarning("Could not mark a peer unreachable", cause)))
    }
  })
)
