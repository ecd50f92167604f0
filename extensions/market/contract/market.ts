/**
 * The market as other features call it: its listings searched (the omnibar), and credits entering
 * the node booked to a being's wallet (a federation directory's registration credits).
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { Caller } from "../../accounts/contract/session.ts"
import type { TooManySearchTerms } from "./errors.ts"
import type { LedgerReason, Listing, ListingKind } from "./records.ts"

export interface ListingQuery {
  readonly kind?: ListingKind | undefined
  readonly q?: string | undefined
  readonly mine: boolean
  readonly limit: number
  readonly offset: number
}

export interface MarketShape {
  /** The spec's search: active listings (or all of the caller's with `mine`), every term required. */
  readonly searchListings: (
    caller: Caller,
    query: ListingQuery
  ) => Effect.Effect<ReadonlyArray<Listing>, TooManySearchTerms>
  /**
   * Credits from the mint to a being's wallet (opened first if it never was), outside its lifetime
   * earned, with `reason` on both sides. Runs inside the caller's transaction when it has one.
   */
  readonly creditFromMint: (beingId: string, amount: number, reason: LedgerReason) => Effect.Effect<void>
}

export class Market extends Context.Tag("market/Market")<Market, MarketShape>() {}
