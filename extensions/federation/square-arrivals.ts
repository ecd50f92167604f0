/**
 * Peers' square posts bound to the square's own tables: a post lands as a remote post (its
 * provenance kept: the peer, the author's did), its affect read from its text as a local post's
 * is, and a retraction removes it. Writes only: deliver tells everyone once its transaction
 * committed.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { randomBytes } from "node:crypto"
import { SquareArrivals } from "./contract/ports.ts"
import { affectOf } from "../souls/affect.ts"
import type { Post } from "../souls/contract/records.ts"
import { PostsRepository } from "../souls/repositories/posts-repository.ts"
import { nowIso } from "../../kernel/time.ts"

export const SquareArrivalsLive = Layer.effect(
  SquareArrivals,
  Effect.gen(function* () {
    const posts = yield* PostsRepository
    return {
      arrive: (arriving) =>
        Effect.gen(function* () {
          const { needs: _needs, ...mood } = affectOf(arriving.content)
          const id = randomBytes(12).toString("base64url")
          const createdAt = yield* nowIso
          const stored = yield* posts.insertRemote({ ...arriving, id, mood, createdAt })
          if (!stored) return Option.none()
          const post: Post = {
            id, threadKind: "square", authorId: arriving.authorDid, authorName: arriving.authorName, content: arriving.content, mood, createdAt,
            origin: { peerDid: arriving.peerDid, peerName: arriving.peerName, authorDid: arriving.authorDid }
          }
          return Option.some(post)
        }),
      retract: (input) => Effect.map(posts.removeRemote(input), (rows) => Option.fromNullable(rows[0]?.id))
    }
  })
).pipe(Layer.provide(PostsRepository.Default))
