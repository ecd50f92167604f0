/**
 * Reviews: only a buyer of the listing may review it (the node's owner is exempt), never its
 * seller; one review per author and listing, a second post rewriting the first. The listing's
 * rating and count are recomputed from the rows in the same transaction as every change.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import { NotABuyer, ReviewingOwnListing } from "./contract/errors.ts"
import { orDieOnStorageFault } from "../../kernel/repository.ts"
import { nowIso } from "../../kernel/time.ts"
import type { Caller } from "../accounts/contract/session.ts"
import type { ReviewInput } from "./contract/records.ts"
import { newId } from "./ids.ts"
import { Listings } from "./listings.ts"
import { OrdersRepository } from "./repositories/orders-repository.ts"
import { ReviewsRepository } from "./repositories/reviews-repository.ts"
import { spanNamed } from "../../kernel/spans.ts"

export class Reviews extends Effect.Service<Reviews>()("market/Reviews", {
  dependencies: [Listings.Default, OrdersRepository.Default, ReviewsRepository.Default],
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const listings = yield* Listings
    const orders = yield* OrdersRepository
    const reviews = yield* ReviewsRepository

    const list = (listingId: string) =>
      Effect.zipRight(listings.get(listingId), reviews.list(listingId)).pipe(spanNamed("market.listReviews"))

    const post = (caller: Caller, listingId: string, input: ReviewInput) =>
      sql
        .withTransaction(
          Effect.gen(function* () {
            const listing = yield* listings.get(listingId)
            if (listing.sellerId === caller.beingId) {
              return yield* new ReviewingOwnListing({
                message: "You cannot review your own listing.",
                details: { listingId }
              })
            }
            if (!caller.isOwner && (yield* orders.holds({ buyerId: caller.beingId, listingId })).length === 0) {
              return yield* new NotABuyer({
                message: "Only those who bought this listing can review it.",
                details: { listingId }
              })
            }
            const at = yield* nowIso
            const review = yield* reviews
              .upsert({
                id: newId(),
                listingId,
                authorId: caller.beingId,
                rating: input.rating,
                body: input.body,
                createdAt: at,
                updatedAt: at
              })
              .pipe(Effect.catchTag("NoSuchElementException", Effect.die))
            yield* reviews.recompute(listingId)
            return review
          })
        )
        .pipe(orDieOnStorageFault, spanNamed("market.postReview"))

    return { list, post } as const
  })
}) {}
