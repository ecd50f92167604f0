/** The market's words: what each kind of listing is called, and a listing's state for a reader. */
import type { LedgerReason, Listing, ListingKind } from "../../../extensions/market/contract/records.ts"

export const kindLabels: Record<ListingKind, string> = {
  generator: "Generator",
  skill: "Skill",
  agent: "Agent",
  service: "Service",
  theme: "Theme",
  module: "Module"
}

export const listingKinds = Object.keys(kindLabels) as ReadonlyArray<ListingKind>

export const credits = (amount: number): string => `${amount} ${Math.abs(amount) === 1 ? "credit" : "credits"}`

/** Moderation's mark first: the seller's status cannot lift it. */
export const listingStateWords = (listing: Listing): string =>
  listing.moderatedAt !== null
    ? "Taken down by the node's owner"
    : listing.status === "active"
      ? "For sale"
      : listing.status === "paused"
        ? "Paused"
        : "Sold out"

export const listingTone = (listing: Listing): "good" | "bad" | "active" =>
  listing.moderatedAt !== null ? "bad" : listing.status === "active" ? "good" : "active"

export const ratingWords = (listing: Listing): string =>
  listing.ratingCount === 0
    ? "No reviews yet"
    : `${listing.rating.toFixed(1)} out of 5 from ${listing.ratingCount} ${listing.ratingCount === 1 ? "review" : "reviews"}`

export const reasonLabels: Record<LedgerReason, string> = {
  starting_credit: "Starting credit",
  purchase: "Purchase",
  sale: "Sale",
  directory: "Directory credit",
  plugin: "Spent by a plugin"
}
