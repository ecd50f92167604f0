/** The market as the node lists it: its services with their ports bound to the goods it sells and the desktop. */
import * as Layer from "effect/Layer"
import { Ledger } from "../../extensions/market/ledger.ts"
import { Listings } from "../../extensions/market/listings.ts"
import { Purchases } from "../../extensions/market/purchases.ts"
import { Reviews } from "../../extensions/market/reviews.ts"
import { PurchaseSignalsLive } from "./celebrations.ts"
import { MarketGoodsLive } from "./goods.ts"

export const marketFeature = Layer.mergeAll(Ledger.Default, Listings.Default, Purchases.Default, Reviews.Default).pipe(
  Layer.provide(Layer.mergeAll(MarketGoodsLive, PurchaseSignalsLive))
)
