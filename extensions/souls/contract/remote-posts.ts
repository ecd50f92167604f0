/**
 * Peers' posts in this node's square, as the federation hands them over: a post lands as a remote
 * post (its provenance kept), its affect read from its text as a local post's is, and a retraction
 * removes it. Writes only: the caller announces a change once its transaction committed.
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import type { Post } from "./records.ts"

/** A peer's square post arriving here. */
export interface ArrivingRemotePost {
  readonly peerDid: string
  readonly peerName: string | null
  readonly authorDid: string
  readonly authorName: string
  /** The post's id on its author's node. */
  readonly remoteId: string
  readonly content: string
}

export interface RemotePostsShape {
  /** Stores the post; None when it is there already. */
  readonly arrive: (post: ArrivingRemotePost) => Effect.Effect<Option.Option<Post>>
  /** Removes the post its author took back; answers its id here, None when it was not here. */
  readonly retract: (input: {
    readonly peerDid: string
    readonly authorDid: string
    readonly remoteId: string
  }) => Effect.Effect<Option.Option<string>>
}

export class RemotePosts extends Context.Tag("souls/RemotePosts")<RemotePosts, RemotePostsShape>() {}
