/**
 * The market's records as the first document names them (Listing, Review, Order) and ours where
 * it is silent (Wallet, LedgerEntry), with the request shapes of their routes. No body names a
 * being, seller or buyer: the session does. Plain schemas only: the HTTP contract imports this.
 */
import * as Schema from "effect/Schema"
import { PageParams } from "../../../kernel/contract/page.ts"

export const ListingKind = Schema.Literal("generator", "skill", "agent", "service", "theme", "module")
export type ListingKind = typeof ListingKind.Type

export const ListingStatus = Schema.Literal("active", "paused", "sold_out")
export type ListingStatus = typeof ListingStatus.Type

/** Kinds whose refId must name something the seller owns (the spec's publishing rule). */
export const ownedRefKinds: ReadonlyArray<ListingKind> = ["generator", "agent", "theme"]

export const MAX_SEARCH_TERMS = 6
export const MAX_PRICE = 1_000_000

export const Listing = Schema.Struct({
  id: Schema.String,
  sellerId: Schema.String,
  kind: ListingKind,
  refId: Schema.NullOr(Schema.String),
  title: Schema.String,
  description: Schema.String,
  cover: Schema.NullOr(Schema.String),
  priceCredits: Schema.Int,
  rating: Schema.Number,
  ratingCount: Schema.Int,
  sales: Schema.Int,
  tags: Schema.Array(Schema.String),
  status: ListingStatus,
  brief: Schema.NullOr(Schema.String),
  createdAt: Schema.String,
  /**
   * When the node's owner took the listing down (moderation), or null. Apart from `status`: a
   * moderated listing is out of search and cannot be bought whatever its status, and only the
   * owner lifts it (`/api/moderation/listings/:id/resume`).
   */
  moderatedAt: Schema.NullOr(Schema.String)
}).annotations({ identifier: "Listing" })
export type Listing = typeof Listing.Type

const Text = (max: number) => Schema.String.pipe(Schema.maxLength(max))

/** POST's body: the fields a seller chooses. Left out: no refId, no cover, no tags, no brief, price 0. */
export const ListingInput = Schema.Struct({
  kind: ListingKind,
  refId: Schema.optionalWith(Schema.NullOr(Schema.Trim.pipe(Schema.minLength(1), Schema.maxLength(200))), {
    default: () => null
  }),
  title: Schema.Trim.pipe(Schema.minLength(1, { message: () => "a title" }), Schema.maxLength(160)),
  description: Schema.optionalWith(Text(4000), { default: () => "" }),
  cover: Schema.optionalWith(Schema.NullOr(Text(2000)), { default: () => null }),
  priceCredits: Schema.optionalWith(Schema.Int.pipe(Schema.between(0, MAX_PRICE)), { default: () => 0 }),
  tags: Schema.optionalWith(
    Schema.Array(Schema.Trim.pipe(Schema.minLength(1), Schema.maxLength(40))).pipe(Schema.maxItems(16)),
    {
      default: () => []
    }
  ),
  brief: Schema.optionalWith(Schema.NullOr(Text(8000)), { default: () => null })
}).annotations({ identifier: "ListingInput", parseOptions: { onExcessProperty: "error" } })
export type ListingInput = typeof ListingInput.Type

/** PUT's body: the listing's fields again, and its status (a seller pauses, resumes or ends it). */
export const ListingUpdate = Schema.Struct({
  ...ListingInput.fields,
  status: Schema.optional(ListingStatus)
}).annotations({ identifier: "ListingUpdate", parseOptions: { onExcessProperty: "error" } })
export type ListingUpdate = typeof ListingUpdate.Type

const BooleanParam = Schema.transform(Schema.Literal("true", "false", "1", "0"), Schema.Boolean, {
  strict: true,
  decode: (text) => text === "true" || text === "1",
  encode: (flag) => (flag ? "true" : "false")
})

export const ListingSearch = Schema.Struct({
  kind: Schema.optional(ListingKind),
  q: Schema.optional(Schema.String.pipe(Schema.maxLength(400))),
  mine: Schema.optionalWith(BooleanParam, { default: () => false }),
  ...PageParams.fields
})

export const OrderParams = Schema.Struct({
  ...PageParams.fields,
  /** The caller's purchases (default) or the caller's sales. */
  as: Schema.optionalWith(Schema.Literal("buyer", "seller"), { default: () => "buyer" as const })
})

export const ListingPath = Schema.Struct({
  id: Schema.String.pipe(
    Schema.pattern(/^[A-Za-z0-9_-]{1,64}$/, { message: () => "an id of 1 to 64 letters, digits, _ or -" })
  )
})

/** A being's wallet: the ledger's balance of its account and its lifetime totals. */
export const Wallet = Schema.Struct({
  beingId: Schema.String,
  balance: Schema.Int,
  earned: Schema.Int,
  spent: Schema.Int,
  updatedAt: Schema.String
}).annotations({ identifier: "Wallet" })
export type Wallet = typeof Wallet.Type

/**
 * `directory`: credits a federation directory granted the node at its first registration, paid by the mint to the
 * owner. `plugin`: credits a plugin spent of a being's wallet through its `credits` grant, paid to the plugin's own
 * account (`plugin:<plugin id>`).
 */
export const LedgerReason = Schema.Literal("starting_credit", "purchase", "sale", "directory", "plugin")
export type LedgerReason = typeof LedgerReason.Type

/** One side of a movement: its other side is the entry of the same movement on the counter-account. */
export const LedgerEntry = Schema.Struct({
  id: Schema.String,
  movementId: Schema.String,
  /** Positive: credited to the caller; negative: debited. */
  amount: Schema.Int,
  /** The other account: a being's id, `mint`, or a plugin's own (`plugin:<plugin id>`). */
  counterparty: Schema.String,
  reason: LedgerReason,
  orderId: Schema.NullOr(Schema.String),
  createdAt: Schema.String
}).annotations({ identifier: "LedgerEntry" })
export type LedgerEntry = typeof LedgerEntry.Type

export const Order = Schema.Struct({
  id: Schema.String,
  listingId: Schema.String,
  buyerId: Schema.String,
  sellerId: Schema.String,
  kind: ListingKind,
  title: Schema.String,
  priceCredits: Schema.Int,
  status: Schema.Literal("delivered"),
  /** What the buyer received: a generator's, agent's, theme's or project's id, a skill's name. */
  deliveredId: Schema.NullOr(Schema.String),
  createdAt: Schema.String
}).annotations({ identifier: "Order" })
export type Order = typeof Order.Type

export const ReviewInput = Schema.Struct({
  rating: Schema.Int.pipe(Schema.between(1, 5)),
  body: Schema.String.pipe(Schema.maxLength(4000))
}).annotations({ identifier: "ReviewInput", parseOptions: { onExcessProperty: "error" } })
export type ReviewInput = typeof ReviewInput.Type

export const Review = Schema.Struct({
  id: Schema.String,
  listingId: Schema.String,
  authorId: Schema.String,
  rating: Schema.Int,
  body: Schema.String,
  createdAt: Schema.String,
  updatedAt: Schema.String
}).annotations({ identifier: "Review" })
export type Review = typeof Review.Type
