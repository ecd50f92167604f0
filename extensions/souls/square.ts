/**
 * The square: one public feed every signed-in being reads and writes. Each post's affect is read
 * from its text (affect.ts, no model) and kept with it. A new post is published to everyone
 * (`square.post`), then the square's mood: the mean valence and arousal of the last
 * AMBIENT_WINDOW visible posts, published as `ambient` whenever it differs from the last one
 * published (a hidden post leaves the mean too).
 *
 * Its life: a beat (`tick`) has a few citizens post in character; `greet` has a few welcome the
 * caller. Each line comes from the cheap tier (structured output, spend recorded by the models
 * service, attributed to the caller who asked for the beat), or from the citizen's templates
 * (seeds/citizens.ts) when no model is bound or the call fails.
 */
import * as Chunk from "effect/Chunk"
import type * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Random from "effect/Random"
import * as Ref from "effect/Ref"
import * as Schema from "effect/Schema"
import { randomBytes } from "node:crypto"
import { citizens, greetings, type CitizenSeed } from "../../seeds/citizens.ts"
import { PostNotFound, PostNotYours, RemotePostUndeletable } from "./contract/errors.ts"
import type { Page } from "../../kernel/contract/page.ts"
import { nowIso } from "../../kernel/time.ts"
import { EventBus } from "../../kernel/events.ts"
import { Models } from "../models/contract/models.ts"
import { affectOf } from "./affect.ts"
import type { ModeratedPost, Mood, Post, PostDeleted } from "./contract/records.ts"
import { meanMood } from "./mood.ts"
import { SquareOutbound } from "./contract/square-outbound.ts"
import { PostsRepository, type StoredPost } from "./repositories/posts-repository.ts"
import { Souls } from "./souls.ts"
import { spanNamed } from "../../kernel/spans.ts"

export const FEED_LENGTH = 100
export const AMBIENT_WINDOW = 20
/** How many citizens speak in one beat. */
export const BEAT_SIZE = 3
const MAX_POST = 280

const newId = () => randomBytes(12).toString("base64url")

const toModerated = ({ peerDid, peerName, ...post }: StoredPost): ModeratedPost =>
  peerDid === null ? post : { ...post, origin: { peerDid, peerName, authorDid: post.authorId } }

const toPost = (stored: StoredPost): Post => {
  const { hiddenAt: _hiddenAt, ...post } = toModerated(stored)
  return post
}

/** What the model answers for one line in the square. */
const Line = Schema.Struct({ post: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(MAX_POST)) })
const lineSchema = {
  name: "square_post",
  schema: {
    type: "object",
    properties: { post: { type: "string", minLength: 1, maxLength: MAX_POST } },
    required: ["post"],
    additionalProperties: false
  }
} as const

export interface Author {
  readonly id: string
  readonly displayName: string
}

export class Square extends Effect.Service<Square>()("souls/Square", {
  dependencies: [PostsRepository.Default, Souls.Default],
  effect: Effect.gen(function* () {
    const posts = yield* PostsRepository
    const souls = yield* Souls
    const bus = yield* EventBus
    const models = yield* Models
    const lastAmbient = yield* Ref.make<Option.Option<Mood>>(Option.none())
    const outbound = yield* Effect.serviceOption(SquareOutbound)
    /** Tells the federation, when it is bound; a fault there never undoes the square's own change. */
    const tellPeers = (send: (port: Context.Tag.Service<typeof SquareOutbound>) => Effect.Effect<void>) =>
      Option.match(outbound, {
        onNone: () => Effect.void,
        onSome: (port) =>
          send(port).pipe(
            Effect.catchAllCause((cause) => Effect.logWarning("square: could not queue for peers", cause))
          )
      })

    const feed = posts.recentVisible(FEED_LENGTH).pipe(
      Effect.map((rows) => rows.map(toPost)),
      spanNamed("square.feed")
    )

    /** The square's mood now, and how many posts it is the mean of. */
    const measured = Effect.map(posts.recentVisible(AMBIENT_WINDOW), (recent) => ({
      mood: meanMood(recent.map((post) => post.mood)),
      of: recent.length
    }))

    /** What a place opening shows before the next `ambient` event. */
    const mood = Effect.map(measured, ({ mood }) => mood).pipe(spanNamed("square.mood"))

    /** The square's mood now, published when it changed. */
    const publishAmbient = Effect.gen(function* () {
      const { mood, of } = yield* measured
      const previous = yield* Ref.getAndSet(lastAmbient, Option.some(mood))
      const same = Option.match(previous, {
        onNone: () => false,
        onSome: (last) => last.valence === mood.valence && last.arousal === mood.arousal && last.label === mood.label
      })
      if (!same)
        yield* bus.publish({ kind: "all" }, { type: "ambient", mood, hint: `the mean of the last ${of} posts` })
    })

    const create = (author: Author, content: string) =>
      Effect.gen(function* () {
        const { needs: _needs, ...mood } = affectOf(content)
        const stored: StoredPost = {
          id: newId(),
          threadKind: "square",
          authorId: author.id,
          authorName: author.displayName,
          content,
          mood,
          hiddenAt: null,
          createdAt: yield* nowIso,
          peerDid: null,
          peerName: null
        }
        yield* posts.insert(stored)
        const post = toPost(stored)
        yield* bus.publish({ kind: "all" }, { type: "square.post", post })
        yield* publishAmbient
        return post
      }).pipe(spanNamed("square.create"))

    /** One line from the cheap tier in the citizen's voice; none when no model answered well. */
    const spoken = (citizen: CitizenSeed, ask: string, callerId: string) =>
      Effect.gen(function* () {
        const soul = yield* souls.current({ id: citizen.beingId, displayName: citizen.persona.name })
        const answer = yield* models.chatJson("cheap", {
          messages: [
            { role: "system", content: soul.systemPrompt },
            { role: "user", content: ask }
          ],
          responseFormat: { type: "json_schema", name: lineSchema.name, schema: lineSchema.schema, strict: true },
          purpose: "square life",
          beingId: callerId
        })
        return Option.getRight(Schema.decodeUnknownEither(Line)(answer.value)).pipe(Option.map((line) => line.post))
      }).pipe(
        Effect.catchAll((error) =>
          Effect.as(
            error._tag === "ModelsUnavailable"
              ? Effect.void
              : Effect.logWarning("square: a citizen's line fell back to its templates", error._tag),
            Option.none<string>()
          )
        )
      )

    const pickCitizens = Effect.map(Random.shuffle(citizens), (shuffled) =>
      Chunk.toReadonlyArray(shuffled).slice(0, BEAT_SIZE)
    )
    const pickLine = (lines: ReadonlyArray<string>) =>
      Effect.map(Random.nextIntBetween(0, lines.length), (index) => lines[index]!)

    const recentLines = Effect.map(posts.recentVisible(8), (rows) =>
      rows.length === 0
        ? "The square is quiet; nobody has posted yet."
        : rows
            .map((post) => `${post.authorName}: ${post.content}`)
            .reverse()
            .join("\n")
    )

    /** A few citizens post: each in its own words when a model answers, else one of its templates. */
    const beat = (caller: Author, kind: "tick" | "greet") =>
      Effect.gen(function* () {
        const chosen = yield* pickCitizens
        const context = yield* recentLines
        const made: Array<Post> = []
        for (const citizen of chosen) {
          const ask =
            kind === "tick"
              ? `Recent posts in the square:\n${context}\n\nWrite one short post for the square (at most ${MAX_POST} characters), in your own voice. Answer as JSON { "post": "..." }.`
              : `${caller.displayName} has just arrived in the square. Write one short, warm greeting to them (at most ${MAX_POST} characters), in your own voice. Answer as JSON { "post": "..." }.`
          const line = yield* spoken(citizen, ask, caller.id)
          const content = Option.isSome(line)
            ? line.value
            : kind === "tick"
              ? yield* pickLine(citizen.posts)
              : (yield* pickLine(greetings))
                  .replaceAll("{name}", citizen.persona.name)
                  .replaceAll("{guest}", caller.displayName)
          made.push(yield* create({ id: citizen.beingId, displayName: citizen.persona.name }, content))
        }
        return { posts: made }
      }).pipe(spanNamed(`square.${kind}`))

    /**
     * A post a being writes (the square's route): made, then queued for the peers the owner
     * publishes to. The life's beats (`create` alone) stay on this node: they are its ambient
     * chatter, not anyone's word.
     */
    const post = (author: Author, content: string) =>
      Effect.tap(create(author, content), (made) => tellPeers((port) => port.published(made)))

    const notFound = (id: string) => new PostNotFound({ message: "There is no post with that id.", details: { id } })

    /** Moderation: hide (or show again) a post; it leaves (or rejoins) every feed and the square's mood. */
    const setHidden = (moderatorId: string, id: string, hidden: boolean) =>
      Effect.gen(function* () {
        const found = yield* posts.find(id)
        if (Option.isNone(found)) return yield* Effect.fail(notFound(id))
        const hiddenAt = hidden ? (found.value.hiddenAt ?? (yield* nowIso)) : null
        yield* posts.setHidden({ id, hiddenAt, hiddenBy: hidden ? moderatorId : null })
        // Pages open on the square drop it now; one shown again rejoins the feed at their next load.
        if (hidden) yield* bus.publish({ kind: "all" }, { type: "square.retracted", postId: id })
        yield* publishAmbient
        // This node's own post, hidden: never published on, and taken back where it went (showing it again does not
        // resend it).
        if (hidden && found.value.peerDid === null) yield* tellPeers((port) => port.retracted(id))
        return toModerated({ ...found.value, hiddenAt })
      }).pipe(spanNamed(hidden ? "square.hide" : "square.show"))

    /** Its author or the owner deletes one of this node's posts; peers that had it get a retraction. */
    const remove = (caller: { readonly beingId: string; readonly isOwner: boolean }, id: string) =>
      Effect.gen(function* () {
        const found = yield* posts.find(id)
        if (Option.isNone(found)) return yield* Effect.fail(notFound(id))
        if (found.value.peerDid !== null) {
          return yield* Effect.fail(
            new RemotePostUndeletable({
              message: "A post from another node is hidden through moderation; only its author can take it back.",
              details: { id }
            })
          )
        }
        if (found.value.authorId !== caller.beingId && !caller.isOwner) {
          return yield* Effect.fail(
            new PostNotYours({ message: "Only the post's author or the owner can delete it.", details: { id } })
          )
        }
        yield* posts.remove(id)
        yield* bus.publish({ kind: "all" }, { type: "square.retracted", postId: id })
        yield* publishAmbient
        yield* tellPeers((port) => port.retracted(id))
        return { id, deleted: true } satisfies PostDeleted
      }).pipe(spanNamed("square.delete"))

    const moderated = (page: Page) =>
      posts.recentAll(page).pipe(
        Effect.map((rows) => rows.map(toModerated)),
        spanNamed("square.moderated")
      )

    return { feed, mood, create, post, beat, setHidden, remove, moderated }
  })
}) {}
