/**
 * The port moderation takes listings down through. The market owns listings; this node's market
 * binds this reference (extensions/market/moderation.ts). Unbound, no listing exists: the list is empty
 * and every id answers 404 — the truth on a node without a market.
 *
 * Taking a listing down is moderation's own mark (`moderatedAt`), apart from the seller's
 * `status`: the seller pausing and resuming their listing cannot lift it; only the owner can.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import type { Refusal } from "../../../kernel/contract/errors.ts"
import type { Page } from "../../../kernel/contract/page.ts"
import { NoListingToModerate } from "../../market/contract/errors.ts"
import type { Listing } from "../../market/contract/records.ts"

export interface ListingModerationShape {
  /** A page of every listing, taken down ones too, newest first. */
  readonly list: (page: Page) => Effect.Effect<ReadonlyArray<Listing>>
  /** Takes the listing out of search and buying until the owner restores it; a 404 for an unknown id. */
  readonly pause: (moderatorId: string, listingId: string) => Effect.Effect<Listing, Refusal<404>>
  readonly resume: (listingId: string) => Effect.Effect<Listing, Refusal<404>>
}

const noListing = (id: string) =>
  Effect.fail(new NoListingToModerate({ message: "There is no listing with that id.", details: { id } }))

export class ListingModeration extends Context.Reference<ListingModeration>()("souls/ListingModeration", {
  defaultValue: (): ListingModerationShape => ({
    list: () => Effect.succeed([]),
    pause: (_, id) => noListing(id),
    resume: noListing
  })
}) {}
