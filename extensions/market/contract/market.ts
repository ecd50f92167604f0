/**
 * The market as other features call it: its listings searched (the omnibar), credits entering
 * the node booked to a being's wallet (a federation directory's registration credits), and a
 * plugin's spend of a being's credits (the `credits` capability's adapter).
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { Caller } from "../../accounts/contract/session.ts"
import type { InsufficientCredits, PluginCreditLimit, TooManySearchTerms } from "./errors.ts"
import type { LedgerReason, Listing, ListingKind } from "./records.ts"

export interface ListingQuery {
  readonly kind?: ListingKind | undefined
  readonly q?: string | undefined
  readonly mine: boolean
  readonly limit: number
  readonly offset: number
}

/** A plugin's account and what it may still spend of one being's wallet today. */
export interface PluginCreditStanding {
  /** Its ledger account: `plugin:<plugin id>`. */
  readonly account: string
  /** What that account holds: every credit it was paid. */
  readonly balance: number
  /** What it may spend of one being's wallet in any 24 hours. */
  readonly limit: number
  readonly spentToday: number
  readonly remainingToday: number
}

/** The `credits` capability's ledger side (docs/decisions.md "Plugins' credits and storage"). */
export interface PluginCreditsShape {
  readonly standing: (pluginId: string, beingId: string) => Effect.Effect<PluginCreditStanding>
  /** Moves `amount` (a positive whole number) from the being's wallet to the plugin's account, within the limit. */
  readonly spend: (
    pluginId: string,
    beingId: string,
    amount: number
  ) => Effect.Effect<PluginCreditStanding, InsufficientCredits | PluginCreditLimit>
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
  /** What plugins granted `credits` spend of a being's wallet, into their own accounts. */
  readonly pluginCredits: PluginCreditsShape
}

export class Market extends Context.Tag("market/Market")<Market, MarketShape>() {}
