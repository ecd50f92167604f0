/**
 * The `market_listings` table. Search is the spec's: each whitespace term matched with LIKE
 * (wildcards in the term escaped) against the title, the description and the JSON text of the
 * tags, all terms required; ranked by sales, then rating, then newest. The rating and its count
 * are written only from the review rows (reviews-repository.ts). A listing moderation took down
 * (`moderated_at`) is out of search and cannot sell, whatever its status.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { JsonColumn, operation } from "../../../kernel/repository.ts"
import { Listing, ListingKind, ListingStatus } from "../contract/records.ts"

const StoredListing = Schema.Struct({ ...Listing.fields, tags: JsonColumn(Listing.fields.tags) })

const columns = `id, seller_id AS "sellerId", kind, ref_id AS "refId", title, description, cover, price_credits AS "priceCredits",
  rating, rating_count AS "ratingCount", sales, tags, status, brief, created_at AS "createdAt",
  moderated_at AS "moderatedAt"`

/** What an edit writes: the seller's fields and the status. */
const Change = StoredListing.pick(
  "id",
  "kind",
  "refId",
  "title",
  "description",
  "cover",
  "priceCredits",
  "tags",
  "status",
  "brief"
)

/** `%` and `_` match literally; `\` is the escape. */
export const likePattern = (term: string) => `%${term.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%`

export class ListingsRepository extends Effect.Service<ListingsRepository>()("market/ListingsRepository", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const all = sql.literal(columns)

    const insert = operation(
      "market.insertListing",
      SqlSchema.void({
        Request: StoredListing,
        execute: (
          listing
        ) => sql`INSERT INTO market_listings (id, seller_id, kind, ref_id, title, description, cover, price_credits,
          rating, rating_count, sales, tags, status, brief, created_at, updated_at)
        VALUES (${listing.id}, ${listing.sellerId}, ${listing.kind}, ${listing.refId}, ${listing.title}, ${listing.description},
          ${listing.cover}, ${listing.priceCredits}, 0, 0, 0, ${listing.tags}, ${listing.status}, ${listing.brief},
          ${listing.createdAt}, ${listing.createdAt})`
      })
    )

    const find = operation(
      "market.findListing",
      SqlSchema.findOne({
        Request: Schema.String,
        Result: StoredListing,
        execute: (id) => sql`SELECT ${all} FROM market_listings WHERE id = ${id}`
      })
    )

    /**
     * The listing a buy is about to sell, locked until the buy commits on PostgreSQL (READ
     * COMMITTED): a pause or a price change committed meanwhile waits for the buy, and a buy that
     * waited for one reads what it wrote. SQLite runs one write transaction at a time: a plain read.
     */
    const lockForBuy = operation(
      "market.lockListingForBuy",
      SqlSchema.findOne({
        Request: Schema.String,
        Result: StoredListing,
        execute: (id) =>
          sql.onDialectOrElse({
            pg: () => sql`SELECT ${all} FROM market_listings WHERE id = ${id} FOR UPDATE`,
            orElse: () => sql`SELECT ${all} FROM market_listings WHERE id = ${id}`
          })
      })
    )

    const update = operation(
      "market.updateListing",
      SqlSchema.findOne({
        Request: Schema.Struct({ ...Change.fields, at: Schema.String }),
        Result: StoredListing,
        execute: (
          change
        ) => sql`UPDATE market_listings SET kind = ${change.kind}, ref_id = ${change.refId}, title = ${change.title},
          description = ${change.description}, cover = ${change.cover}, price_credits = ${change.priceCredits}, tags = ${change.tags},
          status = ${change.status}, brief = ${change.brief}, updated_at = ${change.at}
        WHERE id = ${change.id} RETURNING ${all}`
      })
    )

    const setStatus = operation(
      "market.setListingStatus",
      SqlSchema.void({
        Request: Schema.Struct({ id: Schema.String, status: ListingStatus, at: Schema.String }),
        execute: ({ id, status, at }) =>
          sql`UPDATE market_listings SET status = ${status}, updated_at = ${at} WHERE id = ${id}`
      })
    )

    /** Moderation's mark: set with who set it, or cleared (both null). */
    const setModerated = operation(
      "market.setListingModerated",
      SqlSchema.findOne({
        Request: Schema.Struct({
          id: Schema.String,
          at: Schema.NullOr(Schema.String),
          by: Schema.NullOr(Schema.String)
        }),
        Result: StoredListing,
        execute: ({ id, at, by }) =>
          sql`UPDATE market_listings SET moderated_at = ${at}, moderated_by = ${by} WHERE id = ${id} RETURNING ${all}`
      })
    )

    /** A page of every listing, newest first, moderated ones too (moderation's view); the id breaks a tie. */
    const recentAll = operation(
      "market.recentListings",
      SqlSchema.findAll({
        Request: Schema.Struct({ limit: Schema.Int, offset: Schema.Int }),
        Result: StoredListing,
        execute: ({ limit, offset }) =>
          sql`SELECT ${all} FROM market_listings ORDER BY created_at DESC, id DESC LIMIT ${limit} OFFSET ${offset}`
      })
    )

    const remove = operation(
      "market.removeListing",
      SqlSchema.void({
        Request: Schema.String,
        execute: (id) => sql`DELETE FROM market_listings WHERE id = ${id}`
      })
    )

    /** One more sale, only while the listing is active: no row back means it was not (any more). */
    const countSale = operation(
      "market.countSale",
      SqlSchema.findAll({
        Request: Schema.Struct({ id: Schema.String, at: Schema.String }),
        Result: Schema.Struct({ id: Schema.String }),
        execute: ({ id, at }) => sql`UPDATE market_listings SET sales = sales + 1, updated_at = ${at}
        WHERE id = ${id} AND status = 'active' AND moderated_at IS NULL RETURNING id`
      })
    )

    const search = operation(
      "market.searchListings",
      SqlSchema.findAll({
        Request: Schema.Struct({
          terms: Schema.Array(Schema.String),
          kind: Schema.NullOr(ListingKind),
          sellerId: Schema.NullOr(Schema.String),
          limit: Schema.Int,
          offset: Schema.Int
        }),
        Result: StoredListing,
        execute: ({ terms, kind, sellerId, limit, offset }) => {
          const conditions = [
            sellerId === null ? sql`status = 'active' AND moderated_at IS NULL` : sql`seller_id = ${sellerId}`,
            ...(kind === null ? [] : [sql`kind = ${kind}`]),
            ...terms.map((term) => {
              const pattern = likePattern(term)
              return sql`(lower(title) LIKE ${pattern} ESCAPE '\\' OR lower(description) LIKE ${pattern} ESCAPE '\\'
              OR lower(tags) LIKE ${pattern} ESCAPE '\\')`
            })
          ]
          return sql`SELECT ${all} FROM market_listings WHERE ${sql.and(conditions)}
          ORDER BY sales DESC, rating DESC, created_at DESC, id DESC LIMIT ${limit} OFFSET ${offset}`
        }
      })
    )

    return { insert, find, lockForBuy, update, setStatus, setModerated, recentAll, remove, countSale, search } as const
  })
}) {}
