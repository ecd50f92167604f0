/** The market's routes over its ledger, listings, purchases and reviews. */
import * as Layer from "effect/Layer"
import { marketFeature } from "./feature.ts"
import { MarketHandlers } from "./handlers.ts"

export const marketRoutes = MarketHandlers.pipe(Layer.provide(marketFeature))
