/** The market as the node lists it: its services with their ports bound to the goods it sells and the desktop. */
import * as Layer from "effect/Layer"
import { Ledger } from "./ledger.ts"
import { Listings } from "./listings.ts"
import { Purchases } from "./purchases.ts"
import { Reviews } from "./reviews.ts"
import { PurchaseSignalsLive } from "./celebrations.ts"
import { MarketGoodsLive } from "./goods.ts"

export const marketFeature = Layer.mergeAll(Ledger.Default, Listings.Default, Purchases.Default, Reviews.Default).pipe(
  Layer.provide(Layer.mergeAll(MarketGoodsLive, PurchaseSignalsLive))
)
