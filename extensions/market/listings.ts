/**
 * Listings: publish, read, edit, delete and search. Publishing rules are the spec's: a service
 * needs a brief or a non-empty description; a generator, agent or theme listing's refId must name
 * the seller's own thing, and a module listing's a module bundle in the seller's files, at insert
 * and at every edit (an edit by the node's owner checks the
 * seller's, since the seller is still who sells it). Only the seller or the owner edits or deletes.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { ListingNotFound, ModuleNeedsRef, NotSeller, ServiceNeedsBrief, TooManySearchTerms } from "./contract/errors.ts"
import { nowIso } from "../../kernel/time.ts"
import type { Caller } from "../accounts/contract/session.ts"
import {
  MAX_SEARCH_TERMS,
  ownedRefKinds,
  type Listing,
  type ListingInput,
  type ListingUpdate
} from "./contract/records.ts"
import type { ListingQuery } from "./contract/market.ts"
import { orderedId } from "./ids.ts"
import { MarketGoods } from "./ports.ts"
import { ListingsRepository } from "./repositories/listings-repository.ts"
import { spanNamed } from "../../kernel/spans.ts"

export const listingNotFound = (id: string) =>
  new ListingNotFound({ message: "There is no listing with that id.", details: { id } })

/** The spec's search: active listings (or all of the caller's with `mine`), every term required. */
export const searchListings = (repository: ListingsRepository) => (caller: Caller, query: ListingQuery) =>
  Effect.gen(function* () {
    const terms = (query.q ?? "").split(/\s+/).filter((term) => term !== "")
    if (terms.length > MAX_SEARCH_TERMS) {
      return yield* new TooManySearchTerms({
        message: `A search takes at most ${MAX_SEARCH_TERMS} words; this one has ${terms.length}.`,
        details: { terms: terms.length, max: MAX_SEARCH_TERMS }
      })
    }
    return yield* repository.search({
      terms,
      kind: query.kind ?? null,
      sellerId: query.mine ? caller.beingId : null,
      limit: query.limit,
      offset: query.offset
    })
  }).pipe(spanNamed("market.searchListings"))

export class Listings extends Effect.Service<Listings>()("market/Listings", {
  dependencies: [ListingsRepository.Default],
  effect: Effect.gen(function* () {
    const repository = yield* ListingsRepository
    const goods = yield* MarketGoods

    const get = (id: string) =>
      Effect.flatMap(
        repository.find(id),
        Option.match({ onNone: () => Effect.fail(listingNotFound(id)), onSome: Effect.succeed })
      ).pipe(spanNamed("market.getListing"))

    /** The publishing rules, for the listing's seller. */
    const check = (sellerId: string, input: ListingInput) =>
      Effect.gen(function* () {
        if (input.kind === "service" && (input.brief ?? "").trim() === "" && input.description.trim() === "") {
          return yield* new ServiceNeedsBrief({
            message: "A service listing needs a brief (what a purchase runs) or a description.",
            details: { kind: input.kind }
          })
        }
        if (input.kind === "module" && input.refId === null) {
          return yield* new ModuleNeedsRef({
            message: "A module listing sells a module bundle of yours: give its folder's file id as refId.",
            details: { kind: input.kind }
          })
        }
        if (
          input.refId !== null &&
          (ownedRefKinds.includes(input.kind) || input.kind === "skill" || input.kind === "module")
        ) {
          yield* goods.checkRef(input.kind, sellerId, input.refId)
        }
      })

    const fields = (input: ListingInput) => ({
      kind: input.kind,
      refId: input.refId,
      title: input.title,
      description: input.description,
      cover: input.cover,
      priceCredits: input.priceCredits,
      tags: [...new Set(input.tags)],
      // The brief is what a service purchase runs; other kinds carry none.
      brief: input.kind === "service" ? input.brief : null
    })

    const publish = (caller: Caller, input: ListingInput) =>
      Effect.gen(function* () {
        yield* check(caller.beingId, input)
        const listing: Listing = {
          id: orderedId(),
          sellerId: caller.beingId,
          ...fields(input),
          rating: 0,
          ratingCount: 0,
          sales: 0,
          status: "active",
          createdAt: yield* nowIso,
          moderatedAt: null
        }
        yield* repository.insert(listing)
        return listing
      }).pipe(spanNamed("market.publishListing"))

    /** The listing, if the caller may change it. */
    const editable = (caller: Caller, id: string) =>
      Effect.flatMap(get(id), (listing) =>
        listing.sellerId === caller.beingId || caller.isOwner
          ? Effect.succeed(listing)
          : Effect.fail(
              new NotSeller({
                message: "Only the listing's seller or the owner of this node can change it.",
                details: { id }
              })
            )
      )

    const update = (caller: Caller, id: string, input: ListingUpdate) =>
      Effect.gen(function* () {
        const current = yield* editable(caller, id)
        yield* check(current.sellerId, input)
        const written = yield* repository.update({
          id,
          ...fields(input),
          status: input.status ?? current.status,
          at: yield* nowIso
        })
        return yield* Option.match(written, { onNone: () => Effect.fail(listingNotFound(id)), onSome: Effect.succeed })
      }).pipe(spanNamed("market.updateListing"))

    const remove = (caller: Caller, id: string) =>
      Effect.gen(function* () {
        yield* editable(caller, id)
        yield* repository.remove(id)
        return { ok: true as const }
      }).pipe(spanNamed("market.removeListing"))

    const search = searchListings(repository)

    return { get, publish, update, remove, search } as const
  })
}) {}
