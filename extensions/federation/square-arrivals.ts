/**
 * Peers' square posts bound to the square (the souls' `RemotePosts` tag): a post lands as a remote
 * post (its provenance kept: the peer, the author's did), its affect read from its text as a local
 * post's is, and a retraction removes it. Writes only: deliver tells everyone once its transaction
 * committed.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { SquareArrivals } from "./contract/ports.ts"
import { RemotePosts } from "../souls/contract/remote-posts.ts"

export const SquareArrivalsLive = Layer.effect(
  SquareArrivals,
  Effect.map(RemotePosts, (posts) => ({ arrive: posts.arrive, retract: posts.retract }))
)
