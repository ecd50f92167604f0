/**
 * Moderation's posts and listings a page at a time, over real HTTP on a real node: 55 square posts
 * and 55 listings written as their tables hold them, two to a second, read newest first (the id
 * breaks a tie) in pages that neither overlap nor leave one out, 50 when no page is named; a page
 * out of bounds is refused and changes nothing; a member is refused as before.
 */
import * as Effect from "effect/Effect"
import { beforeAll, describe, expect, it } from "vitest"
import { Listing } from "../../extensions/market/contract/records.ts"
import { ListingsRepository } from "../../extensions/market/repositories/listings-repository.ts"
import { ModeratedPost } from "../../extensions/souls/contract/records.ts"
import { PostsRepository } from "../../extensions/souls/repositories/posts-repository.ts"
import { pagesHoldAll, refusesBadPages } from "../support/paged-lists.ts"
import { nodeWithOwner, registerMember, type Registered } from "../support/node.ts"

const context = nodeWithOwner()
let member: Registered

const SEEDED = 55

/** The moment of the `index`th seeded row: two to each second from the first of 2026. */
const momentOf = (index: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, Math.floor(index / 2))).toISOString()

const ids = Array.from({ length: SEEDED }, (_, index) => ({
  id: `seeded-${String(index).padStart(2, "0")}`,
  createdAt: momentOf(index)
}))

/** Newest first; of two of one moment, the greater id first. */
const newestFirst = [...ids]
  .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || (a.id < b.id ? 1 : -1))
  .map((row) => row.id)

beforeAll(async () => {
  member = await registerMember(context.node, context.owner.client)
  const owner = context.owner.being
  await context.node.runtime.runPromise(
    Effect.gen(function* () {
      const posts = yield* PostsRepository
      const listings = yield* ListingsRepository
      yield* Effect.forEach(
        ids,
        ({ id, createdAt }) =>
          posts.insert({
            id,
            threadKind: "square",
            authorId: owner.id,
            authorName: "Owner",
            content: `Post ${id}`,
            mood: { valence: 0, arousal: 0.5, label: "calm" },
            createdAt,
            hiddenAt: null,
            peerDid: null,
            peerName: null
          }),
        { discard: true }
      )
      yield* Effect.forEach(
        ids,
        ({ id, createdAt }) =>
          listings.insert({
            id,
            sellerId: owner.id,
            kind: "skill",
            refId: null,
            title: `Listing ${id}`,
            description: "",
            cover: null,
            priceCredits: 1,
            rating: 0,
            ratingCount: 0,
            sales: 0,
            tags: [],
            status: "active",
            brief: null,
            createdAt,
            moderatedAt: null
          }),
        { discard: true }
      )
    }).pipe(Effect.orDie, Effect.provide([PostsRepository.Default, ListingsRepository.Default]))
  )
})

describe("GET /api/moderation/posts, a page at a time", () => {
  it("answers every post newest first in pages that do not overlap and together hold them all", async () => {
    const all = await pagesHoldAll(context.owner.client, ModeratedPost, "/api/moderation/posts", (post) => post.id)
    expect(all).toEqual(newestFirst)
  })

  it("refuses a page out of bounds or not a number, and a member cannot read it", async () => {
    await refusesBadPages(context.owner.client, ModeratedPost, "/api/moderation/posts")
    expect((await member.client.raw("GET", "/api/moderation/posts?limit=10")).status).toBe(403)
  })
})

describe("GET /api/moderation/listings, a page at a time", () => {
  it("answers every listing newest first in pages that do not overlap and together hold them all", async () => {
    const all = await pagesHoldAll(context.owner.client, Listing, "/api/moderation/listings", (listing) => listing.id)
    expect(all).toEqual(newestFirst)
  })

  it("refuses a page out of bounds or not a number, and a member cannot read it", async () => {
    await refusesBadPages(context.owner.client, Listing, "/api/moderation/listings")
    expect((await member.client.raw("GET", "/api/moderation/listings?limit=10")).status).toBe(403)
  })
})
