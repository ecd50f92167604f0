/** The souls' contract tags bound: `SoulService` over the souls engine, `RemotePosts` over the square's tables. */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { randomBytes } from "node:crypto"
import { nowIso } from "../../kernel/time.ts"
import { affectOf } from "./affect.ts"
import { compilePrompt } from "./compile.ts"
import type { Post } from "./contract/records.ts"
import { RemotePosts, type RemotePostsShape } from "./contract/remote-posts.ts"
import { SoulService, type SoulServiceShape } from "./contract/soul-service.ts"
import { generateSoul } from "./generate.ts"
import { PostsRepository } from "./repositories/posts-repository.ts"
import { Souls } from "./souls.ts"

/** An ephemeral agent's prompt: generated and compiled, pure; its soul is never stored. */
export const agentPrompt: SoulServiceShape["agentPrompt"] = ({ seed, name, role, job }) =>
  compilePrompt(name, generateSoul({ seed, role }).fields, { mode: "agent", role, job })

export const SoulServiceLive = Layer.effect(
  SoulService,
  Effect.map(
    Souls,
    (souls): SoulServiceShape => ({
      ensure: (owner) => Effect.asVoid(souls.current(owner)),
      promptOf: (owner, name) => Effect.map(souls.current(owner), (soul) => compilePrompt(name, soul)),
      agentPromptOf: (owner, { role, job }) =>
        Effect.map(souls.current(owner), (soul) =>
          compilePrompt(owner.displayName, soul, { mode: "agent", role, job })
        ),
      agentPrompt
    })
  )
).pipe(Layer.provide(Souls.Default))

export const RemotePostsLive = Layer.effect(
  RemotePosts,
  Effect.map(
    PostsRepository,
    (posts): RemotePostsShape => ({
      arrive: (arriving) =>
        Effect.gen(function* () {
          const { needs: _needs, ...mood } = affectOf(arriving.content)
          const id = randomBytes(12).toString("base64url")
          const createdAt = yield* nowIso
          const stored = yield* posts.insertRemote({ ...arriving, id, mood, createdAt })
          if (!stored) return Option.none()
          const post: Post = {
            id,
            threadKind: "square",
            authorId: arriving.authorDid,
            authorName: arriving.authorName,
            content: arriving.content,
            mood,
            createdAt,
            origin: { peerDid: arriving.peerDid, peerName: arriving.peerName, authorDid: arriving.authorDid }
          }
          return Option.some(post)
        }),
      retract: (input) => Effect.map(posts.removeRemote(input), (rows) => Option.fromNullable(rows[0]?.id))
    })
  )
).pipe(Layer.provide(PostsRepository.Default))
