/**
 * `market_reviews`, and the listing's rating and count, which are only ever recomputed from
 * these rows. One review per author and listing: a second one updates the first.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { operation } from "../../../kernel/repository.ts"
import { Review } from "../contract/records.ts"

const columns = `id, listing_id AS "listingId", author_id AS "authorId", rating, body, created_at AS "createdAt", updated_at AS "updatedAt"`

export class ReviewsRepository extends Effect.Service<ReviewsRepository>()("market/ReviewsRepository", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const all = sql.literal(columns)

    /** Writes the author's review of the listing, or rewrites the one they wrote; answers the row. */
    const upsert = operation(
      "market.upsertReview",
      SqlSchema.single({
        Request: Review,
        Result: Review,
        execute: (
          review
        ) => sql`INSERT INTO market_reviews (id, listing_id, author_id, rating, body, created_at, updated_at)
        VALUES (${review.id}, ${review.listingId}, ${review.authorId}, ${review.rating}, ${review.body}, ${review.createdAt},
          ${review.updatedAt})
        ON CONFLICT (listing_id, author_id) DO UPDATE SET rating = excluded.rating, body = excluded.body,
          updated_at = excluded.updated_at
        RETURNING ${all}`
      })
    )

    /** The listing's rating (the mean, 0 with none) and count, from its review rows. */
    const recompute = operation(
      "market.recomputeRating",
      SqlSchema.void({
        Request: Schema.String,
        execute: (listingId) => sql`UPDATE market_listings SET
          rating = COALESCE((SELECT AVG(CAST(rating AS REAL)) FROM market_reviews WHERE listing_id = ${listingId}), 0),
          rating_count = (SELECT COUNT(*) FROM market_reviews WHERE listing_id = ${listingId})
        WHERE id = ${listingId}`
      })
    )

    const list = operation(
      "market.listReviews",
      SqlSchema.findAll({
        Request: Schema.String,
        Result: Review,
        execute: (listingId) =>
          sql`SELECT ${all} FROM market_reviews WHERE listing_id = ${listingId} ORDER BY updated_at DESC, id DESC`
      })
    )

    return { upsert, recompute, list } as const
  })
}) {}
