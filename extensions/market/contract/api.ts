/**
 * The market's routes (docs/api.md "Market"): the caller's wallet, ledger and orders; listings
 * (search, publish, read, edit, delete), buying and reviews. Every route needs a session and the
 * caller is the session's being: no body names a seller or buyer. The refusals' codes are
 * listed in docs/api.md.
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
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
  Review,
  ReviewInput,
  Wallet
} from "./records.ts"
import { PageParams } from "../../../kernel/contract/page.ts"

export class MarketApi extends HttpApiGroup.make("market")
  .annotate(
    OpenApi.Description,
    "The market: wallets and credits, listings (generators, agents, themes, modules, services), buying, orders " +
      "and reviews."
  )
  .add(
    HttpApiEndpoint.get("wallet", "/market/wallet")
      .annotate(OpenApi.Summary, "The wallet")
      .annotate(
        OpenApi.Description,
        "The caller's balance, earned and spent; the first touch opens it with the starting credits. Any " + "session."
      )
      .addSuccess(Wallet)
  )
  .add(
    HttpApiEndpoint.get("ledger", "/market/wallet/ledger")
      .annotate(OpenApi.Summary, "The wallet's ledger")
      .annotate(
        OpenApi.Description,
        "The caller's ledger entries, newest first, paged by `limit` (1..200) and `offset`. Any session."
      )
      .setUrlParams(PageParams)
      .addSuccess(Schema.Array(LedgerEntry))
  )
  .add(
    HttpApiEndpoint.get("orders", "/market/orders")
      .annotate(OpenApi.Summary, "List orders")
      .annotate(OpenApi.Description, "The caller's orders as buyer (default) or seller, newest first. Any session.")
      .setUrlParams(OrderParams)
      .addSuccess(Schema.Array(Order))
  )
  .add(
    HttpApiEndpoint.get("searchListings", "/market/listings")
      .annotate(OpenApi.Summary, "Search listings")
      .annotate(
        OpenApi.Description,
        "Active listings not taken down, every word of `q` required (at most 6), by `kind`; with `mine=true` the " +
          "caller's own whatever their status. Ranked by sales, rating, then newest; at most `limit` (1..200) and " +
          "`offset` (0..1,000,000) skipped. Any session. Refusals: 400 `too_many_search_terms`."
      )
      .setUrlParams(ListingSearch)
      .addSuccess(Schema.Array(Listing))
      .addError(InvalidRequest.schema)
  )
  .add(
    HttpApiEndpoint.post("publishListing", "/market/listings")
      .annotate(OpenApi.Summary, "Publish a listing")
      .annotate(
        OpenApi.Description,
        "Lists a generator, agent, theme, skill, module or service of the caller's for credits. Any session. " +
          "Refusals: 400 `service_needs_brief`, `unknown_skill`, `module_needs_ref`, `not_a_bundle`, " +
          "`not_a_module`, `bundle_too_large`, `invalid_manifest`; 403 `ref_not_owned`; 404 `ref_not_found`."
      )
      .setPayload(ListingInput)
      .addSuccess(Listing)
      .addError(InvalidRequest.schema)
      .addError(Forbidden.schema)
      .addError(NotFound.schema)
  )
  .add(
    HttpApiEndpoint.get("getListing", "/market/listings/:id")
      .annotate(OpenApi.Summary, "Get a listing")
      .annotate(OpenApi.Description, "A listing whatever its status. Any session. Refusals: 404 `listing_not_found`.")
      .setPath(ListingPath)
      .addSuccess(Listing)
      .addError(NotFound.schema)
  )
  .add(
    HttpApiEndpoint.put("updateListing", "/market/listings/:id")
      .annotate(OpenApi.Summary, "Change a listing")
      .annotate(
        OpenApi.Description,
        "Replaces the listing (the publish rules again) and optionally its `status`. The seller or the node's " +
          "owner (403 `not_seller`). Refusals: 404 `listing_not_found`, and publish's."
      )
      .setPath(ListingPath)
      .setPayload(ListingUpdate)
      .addSuccess(Listing)
      .addError(InvalidRequest.schema)
      .addError(Forbidden.schema)
      .addError(NotFound.schema)
  )
  .add(
    HttpApiEndpoint.del("deleteListing", "/market/listings/:id")
      .annotate(OpenApi.Summary, "Delete a listing")
      .annotate(
        OpenApi.Description,
        "Deletes the listing and its reviews; orders stay. The seller or the node's owner (403 `not_seller`). " +
          "Refusals: 404 `listing_not_found`."
      )
      .setPath(ListingPath)
      .addSuccess(Ok)
      .addError(Forbidden.schema)
      .addError(NotFound.schema)
  )
  .add(
    HttpApiEndpoint.post("buyListing", "/market/listings/:id/buy")
      .annotate(OpenApi.Summary, "Buy a listing")
      .annotate(
        OpenApi.Description,
        "Buys the listing in one transaction: credits move, the copy (or the service's project) is delivered, an " +
          "order is written. Any session; rate class `llm`. Refusals (nothing moves): 404 `listing_not_found`; 409 " +
          "`listing_inactive`, `listing_moderated`, `own_listing`, `already_owned`, `insufficient_credits` " +
          "(`details.missing`), `listing_sold_out`, `module_already_available`; 503 `module_delivery_failed`."
      )
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
      .annotate(OpenApi.Summary, "List a listing's reviews")
      .annotate(
        OpenApi.Description,
        "The listing's reviews, last changed first. Any session. Refusals: 404 `listing_not_found`."
      )
      .setPath(ListingPath)
      .addSuccess(Schema.Array(Review))
      .addError(NotFound.schema)
  )
  .add(
    HttpApiEndpoint.post("postReview", "/market/listings/:id/reviews")
      .annotate(OpenApi.Summary, "Review a listing")
      .annotate(
        OpenApi.Description,
        "Writes (or rewrites) the caller's review and recomputes the listing's rating. A buyer of the listing or " +
          "the node's owner. Refusals: 403 `not_a_buyer`, 403 `own_listing`, 404 `listing_not_found`."
      )
      .setPath(ListingPath)
      .setPayload(ReviewInput)
      .addSuccess(Review)
      .addError(NotFound.schema)
      .addError(Forbidden.schema)
  )
  .middleware(Authentication)
  .prefix("/api") {}
