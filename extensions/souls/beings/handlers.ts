/**
 * Handlers of the souls, beings and moderation routes. The caller is the session's being; who may
 * do what is checked here, from the session only: soul `PUT` and `generate` the owner; recompile
 * and drift the being itself or the owner; the square's life and moderation the owner.
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { OwnerOnly } from "../../accounts/contract/errors.ts"
import { SoulNotYours } from "../contract/errors.ts"
import { affectOf } from "../affect.ts"
import { ListingModeration } from "../contract/listing-moderation.ts"
import { soulFor, Souls } from "../souls.ts"
import { Square } from "../square.ts"
import { CurrentSession } from "../../accounts/contract/session.ts"
import { apiOf } from "../../../kernel/contract/node-api.ts"
import { BeingsApi, ModerationApi, SoulsApi } from "../contract/api.ts"
import { Beings } from "./beings.ts"
import { CitizensSeeded } from "./citizens.ts"

const ownerOnly = (what: string) =>
  Effect.flatMap(CurrentSession, (session) =>
    session.isOwner ? Effect.succeed(session) : Effect.fail(new OwnerOnly({ message: `Only the owner can ${what}.` }))
  )

const SoulsHandlers = HttpApiBuilder.group(apiOf(SoulsApi), "souls", (handlers) =>
  Effect.gen(function* () {
    const beings = yield* Beings
    const souls = yield* Souls

    /** The being whose soul the caller may change: itself, or any being for the owner. */
    const changeable = (beingId: string) =>
      Effect.gen(function* () {
        const session = yield* CurrentSession
        const being = yield* beings.subject(beingId)
        if (!beings.readsPrompt(session, beingId)) {
          return yield* Effect.fail(
            new SoulNotYours({
              message: "Only the being itself or the owner can change its soul.",
              details: { beingId }
            })
          )
        }
        return being
      })

    return handlers
      .handle("affect", ({ payload }) => Effect.sync(() => affectOf(payload.text)))
      .handle("getSoul", ({ path }) =>
        Effect.gen(function* () {
          const session = yield* CurrentSession
          const soul = yield* souls.current(yield* beings.subject(path.beingId))
          return soulFor(soul, beings.readsPrompt(session, path.beingId))
        })
      )
      .handle("putSoul", ({ path, payload }) =>
        Effect.gen(function* () {
          yield* ownerOnly("rewrite a soul")
          return soulFor(yield* souls.replace(yield* beings.subject(path.beingId), payload), true)
        })
      )
      .handle("recompileSoul", ({ path }) =>
        Effect.flatMap(changeable(path.beingId), (being) =>
          Effect.map(souls.recompile(being), (soul) => soulFor(soul, true))
        )
      )
      .handle("generateSoul", ({ path, payload }) =>
        Effect.gen(function* () {
          yield* ownerOnly("generate a soul")
          const { soul, archetype } = yield* souls.generate(yield* beings.subject(path.beingId), payload)
          return { ...soulFor(soul, true), archetype, source: "archetype" as const }
        })
      )
      .handle("driftSoul", ({ path, payload }) =>
        Effect.flatMap(changeable(path.beingId), (being) =>
          Effect.map(souls.drift(being, payload), (soul) => soulFor(soul, true))
        )
      )
  })
)

const BeingsHandlers = HttpApiBuilder.group(apiOf(BeingsApi), "beings", (handlers) =>
  Effect.gen(function* () {
    const beings = yield* Beings
    const square = yield* Square
    const author = Effect.map(CurrentSession, (session) => ({
      id: session.beingId,
      displayName: session.being.displayName
    }))
    return handlers
      .handle("listBeings", () => beings.list)
      .handle("getBeing", ({ path }) => Effect.flatMap(CurrentSession, (session) => beings.get(session, path.id)))
      .handle("patchMe", ({ payload }) => Effect.flatMap(CurrentSession, (session) => beings.patchMe(session, payload)))
      .handle("square", () => square.feed)
      .handle("squareMood", () => square.mood)
      .handle("post", ({ payload }) => Effect.flatMap(author, (who) => square.post(who, payload.content)))
      .handle("deletePost", ({ path }) => Effect.flatMap(CurrentSession, (session) => square.remove(session, path.id)))
      .handle("lifeTick", () =>
        Effect.zipRight(
          ownerOnly("run the square's life"),
          Effect.flatMap(author, (who) => square.beat(who, "tick"))
        )
      )
      .handle("lifeGreet", () =>
        Effect.zipRight(
          ownerOnly("run the square's life"),
          Effect.flatMap(author, (who) => square.beat(who, "greet"))
        )
      )
  })
)

const ModerationHandlers = HttpApiBuilder.group(apiOf(ModerationApi), "moderation", (handlers) =>
  Effect.gen(function* () {
    const square = yield* Square
    const moderator = Effect.map(ownerOnly("moderate"), (session) => session.beingId)
    return handlers
      .handle("listPosts", ({ urlParams }) => Effect.zipRight(moderator, square.moderated(urlParams)))
      .handle("hidePost", ({ path }) => Effect.flatMap(moderator, (id) => square.setHidden(id, path.id, true)))
      .handle("showPost", ({ path }) => Effect.flatMap(moderator, (id) => square.setHidden(id, path.id, false)))
      .handle("listListings", ({ urlParams }) =>
        Effect.zipRight(
          moderator,
          Effect.flatMap(ListingModeration, (market) => market.list(urlParams))
        )
      )
      .handle("pauseListing", ({ path }) =>
        Effect.flatMap(moderator, (id) => Effect.flatMap(ListingModeration, (market) => market.pause(id, path.id)))
      )
      .handle("resumeListing", ({ path }) =>
        Effect.zipRight(
          moderator,
          Effect.flatMap(ListingModeration, (market) => market.resume(path.id))
        )
      )
  })
)

/** The three groups with the services behind them; the citizens are seeded before the routes serve. */
export const BeingsFeatureHandlers = Layer.mergeAll(SoulsHandlers, BeingsHandlers, ModerationHandlers).pipe(
  Layer.provide(Layer.mergeAll(Beings.Default, Square.Default, Souls.Default)),
  Layer.provide(CitizensSeeded)
)
