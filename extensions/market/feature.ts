/**
 * The market as the node lists it: its routes over its services, with their ports bound to the goods it sells and the
 * desktop, and its contract tag for the features it serves.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { LedgerReason } from "./contract/records.ts"
import { Market } from "./contract/market.ts"
import { Ledger } from "./ledger.ts"
import { Listings, searchListings } from "./listings.ts"
import { Purchases } from "./purchases.ts"
import { Reviews } from "./reviews.ts"
import { PurchaseSignalsLive } from "./celebrations.ts"
import { MarketHandlers } from "./handlers.ts"
import { MarketGoodsLive } from "./goods.ts"
import { LedgerRepository, MINT } from "./repositories/ledger-repository.ts"
import { makePluginCredits } from "./plugin-credits.ts"
import { ListingsRepository } from "./repositories/listings-repository.ts"

export const marketFeature = Layer.mergeAll(Ledger.Default, Listings.Default, Purchases.Default, Reviews.Default).pipe(
  Layer.provide(Layer.mergeAll(MarketGoodsLive, PurchaseSignalsLive))
)

/** The market's routes over its ledger, listings, purchases and reviews. */
export const marketRoutes = MarketHandlers.pipe(Layer.provide(marketFeature))

/**
 * The market's contract tag, over the ledger its routes use and the listings' table: built on the
 * database alone (not on what the market sells), so the features whose services it serves stand on it.
 */
export const MarketLive = Layer.effect(
  Market,
  Effect.gen(function* () {
    const listings = yield* ListingsRepository
    const ledger = yield* Ledger
    const pluginCredits = yield* makePluginCredits
    return {
      searchListings: searchListings(listings),
      creditFromMint: (beingId: string, amount: number, reason: LedgerReason) =>
        Effect.zipRight(
          ledger.open(beingId),
          ledger.move({ from: MINT, to: beingId, amount, reasons: [reason, reason], orderId: null, lifetime: false })
        ).pipe(
          // The mint always pays: an insufficient_credits here is a broken ledger, not a refusal.
          Effect.catchTag("InsufficientCredits", Effect.die)
        ),
      pluginCredits
    }
  })
).pipe(Layer.provide(Layer.mergeAll(Ledger.Default, ListingsRepository.Default, LedgerRepository.Default)))
