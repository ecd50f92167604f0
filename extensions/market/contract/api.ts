/**
 * The market's routes (docs/api.md "Market"): the caller's wallet, ledger and orders; listings
 * (search, publish, read, edit, delete), buying and reviews. Every route needs a session and the
 * caller is the session's being: no body names a seller or buyer. The refusals' codes are
 * listed in docs/api.md.
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as Schema from "effect/Schema"
import { RateClass } from "../../../kernel/contract/endpoint-policy.ts"
import { Conflict, Forbidden, InvalidRequest, NotFound, Unavailable } from "../../../kernel/contract/errors.ts"
import { Ok } from "../../accounts/contract/records.ts"
import { Authentication } from "../../accounts/contract/session.ts"
import {
  LedgerEntry,
  Listing,
  ListingInput,
  ListingPath,
  ListingSearch,
  ListingUpdate,
  Order,
  OrderParams,
  PageParams,
  Review,
  ReviewInput,
  Wallet
} from "./records.ts"

export class MarketApi extends HttpApiGroup.make("market")
  .add(HttpApiEndpoint.get("wallet", "/market/wallet").addSuccess(Wallet))
  .add(HttpApiEndpoint.get("ledger", "/market/wallet/ledger").setUrlParams(PageParams).addSuccess(Schema.Array(LedgerEntry)))
  .add(HttpApiEndpoint.get("orders", "/market/orders").setUrlParams(OrderParams).addSuccess(Schema.Array(Order)))
  .add(
    HttpApiEndpoint.get("searchListings", "/market/listings")
      .setUrlParams(ListingSearch)
      .addSuccess(Schema.Array(Listing))
      .addError(InvalidRequest.schema)
  )
  .add(
    HttpApiEndpoint.post("publishListing", "/market/listings")
      .setPayload(ListingInput)
      .addSuccess(Listing)
      .addError(InvalidRequest.schema)
      .addError(Forbidden.schema)
      .addError(NotFound.schema)
  )
  .add(HttpApiEndpoint.get("getListing", "/market/listings/:id").setPath(ListingPath).addSuccess(Listing).addError(NotFound.schema))
  .add(
    HttpApiEndpoint.put("updateListing", "/market/listings/:id")
      .setPath(ListingPath)
      .setPayload(ListingUpdate)
      .addSuccess(Listing)
      .addError(InvalidRequest.schema)
      .addError(Forbidden.schema)
      .addError(NotFound.schema)
  )
  .add(
    HttpApiEndpoint.del("deleteListing", "/market/listings/:id")
      .setPath(ListingPath)
      .addSuccess(Ok)
      .addError(Forbidden.schema)
      .addError(NotFound.schema)
  )
  .add(
    HttpApiEndpoint.post("buyListing", "/market/listings/:id/buy")
      // A bought service starts a studio project, which spends model budget.
      .annotate(RateClass, "llm")
      .setPath(ListingPath)
      .addSuccess(Order)
      .addError(NotFound.schema)
      .addError(Conflict.schema)
      .addError(Unavailable.schema)
  )
  .add(
    HttpApiEndpoint.get("listReviews", "/market/listings/:id/reviews")
      .setPath(ListingPath)
      .addSuccess(Schema.Array(Review))
      .addError(NotFound.schema)
  )
  .add(
    HttpApiEndpoint.post("postReview", "/market/listings/:id/reviews")
      .setPath(ListingPath)
      .setPayload(ReviewInput)
      .addSuccess(Review)
      .addError(NotFound.schema)
      .addError(Forbidden.schema)
  )
  .middleware(Authentication)
  .prefix("/api")
{}
