/**
 * Where the square's own posts may also go: the federation binds it, and queues a post for the
 * peers the owner publishes to, or a retraction when a post already sent is hidden or deleted.
 * Optional: unbound, nothing leaves the node.
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { Post } from "./records.ts"

export class SquareOutbound extends Context.Tag("souls/SquareOutbound")<
  SquareOutbound,
  {
    readonly published: (post: Post) => Effect.Effect<void>
    readonly retracted: (postId: string) => Effect.Effect<void>
  }
>() {}
