/** Handlers of the market's routes: the caller comes from the session, never from a body. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import { Ledger } from "./ledger.ts"
import { Listings } from "./listings.ts"
import { Purchases } from "./purchases.ts"
import { Reviews } from "./reviews.ts"
import { CurrentSession } from "../accounts/contract/session.ts"
import { apiOf } from "../../kernel/contract/node-api.ts"
import { MarketApi } from "./contract/api.ts"

export const MarketHandlers = HttpApiBuilder.group(apiOf(MarketApi), "market", (handlers) =>
  Effect.gen(function* () {
    const ledger = yield* Ledger
    const listings = yield* Listings
    const purchases = yield* Purchases
    const reviews = yield* Reviews
    const caller = CurrentSession
    return handlers
      .handle("wallet", () => Effect.flatMap(caller, (who) => ledger.wallet(who.beingId)))
      .handle("ledger", ({ urlParams }) =>
        Effect.flatMap(caller, (who) => ledger.entries(who.beingId, urlParams.limit, urlParams.offset))
      )
      .handle("orders", ({ urlParams }) =>
        Effect.flatMap(caller, (who) => purchases.list(who, urlParams.as, urlParams.limit, urlParams.offset))
      )
      .handle("searchListings", ({ urlParams }) => Effect.flatMap(caller, (who) => listings.search(who, urlParams)))
      .handle("publishListing", ({ payload }) => Effect.flatMap(caller, (who) => listings.publish(who, payload)))
      .handle("getListing", ({ path }) => listings.get(path.id))
      .handle("updateListing", ({ path, payload }) =>
        Effect.flatMap(caller, (who) => listings.update(who, path.id, payload))
      )
      .handle("deleteListing", ({ path }) => Effect.flatMap(caller, (who) => listings.remove(who, path.id)))
      .handle("buyListing", ({ path }) => Effect.flatMap(caller, (who) => purchases.buy(who, path.id)))
      .handle("listReviews", ({ path }) => reviews.list(path.id))
      .handle("postReview", ({ path, payload }) => Effect.flatMap(caller, (who) => reviews.post(who, path.id, payload)))
  })
)
