/**
 * Buying, in one transaction (the spec's rules 1 to 5): refuse an inactive listing, one's own, or
 * a second copy of a non-service listing; move the price from the buyer's account to the seller's
 * (both lifetime totals with it); count the sale; deliver by kind; write the order and the
 * purchase. Any refusal or failure rolls all of it back. Transactions on SQLite run one at a time;
 * on PostgreSQL (READ COMMITTED) the buy first locks the listing's row, so a pause or a price change
 * committed at the same instant is either seen or waits for the buy, then both wallets' rows, so
 * every check reads what the buys of the same buyer before it wrote (docs/decisions.md "PostgreSQL").
 *
 * Delivery outside the database (a module's folder) happens inside the transaction too and is
 * taken back if the transaction does not commit (ports.ts).
 *
 * After the commit: a bought service's project is created and started, both wallets publish
 * `wallet.updated`, and both desktops get a celebration (after the answer, on a fiber of its own).
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { AlreadyOwned, BuyingOwnListing, ListingInactive, ListingModerated, ListingSoldOut } from "./contract/errors.ts"
import { orDieOnStorageFault } from "../../kernel/repository.ts"
import { nowIso } from "../../kernel/time.ts"
import { retryOnConflict } from "../../kernel/transaction-retry.ts"
import type { Caller } from "../accounts/contract/session.ts"
import { EventBus } from "../../kernel/events.ts"
import type { Listing, Order, Wallet } from "./contract/records.ts"
import { newId, orderedId } from "./ids.ts"
import { Ledger } from "./ledger.ts"
import { listingNotFound } from "./listings.ts"
import { MarketGoods, PurchaseSignals } from "./ports.ts"
import { ListingsRepository } from "./repositories/listings-repository.ts"
import { OrdersRepository } from "./repositories/orders-repository.ts"
import { spanNamed } from "../../kernel/spans.ts"

/** What a refused buy says of its listing. */
const stateOf = (listing: Listing) => ({ listingId: listing.id, status: listing.status })

export class Purchases extends Effect.Service<Purchases>()("market/Purchases", {
  dependencies: [Ledger.Default, ListingsRepository.Default, OrdersRepository.Default],
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const ledger = yield* Ledger
    const listingRows = yield* ListingsRepository
    const orders = yield* OrdersRepository
    const goods = yield* MarketGoods
    const signals = yield* PurchaseSignals
    const bus = yield* EventBus

    /** Rules 1 to 5, inside the transaction. */
    const buyInside = (buyerId: string, listingId: string) =>
      Effect.gen(function* () {
        // Read under the listing's lock: the state this buy pays for is the one it commits against.
        const listing = yield* Effect.flatMap(
          listingRows.lockForBuy(listingId),
          Option.match({
            onNone: () => Effect.fail(listingNotFound(listingId)),
            onSome: Effect.succeed
          })
        )
        if (listing.moderatedAt !== null)
          return yield* new ListingModerated({
            message: "The node's owner has taken this listing down; it is not for sale.",
            details: stateOf(listing)
          })
        if (listing.status !== "active")
          return yield* new ListingInactive({
            message: `This listing is ${listing.status.replace("_", " ")}, not for sale.`,
            details: stateOf(listing)
          })
        if (listing.sellerId === buyerId)
          return yield* new BuyingOwnListing({ message: "This is your own listing.", details: stateOf(listing) })
        yield* ledger.open(buyerId, listing.sellerId)
        // On PostgreSQL a buy of the same buyer waits here for the one before it to commit.
        yield* ledger.lock([buyerId, listing.sellerId])
        if (listing.kind !== "service" && (yield* orders.holds({ buyerId, listingId })).length > 0) {
          return yield* new AlreadyOwned({
            message: "You already bought this; only services can be bought again.",
            details: stateOf(listing)
          })
        }
        const orderId = orderedId()
        const wallets = yield* ledger.move({
          from: buyerId,
          to: listing.sellerId,
          amount: listing.priceCredits,
          reasons: ["purchase", "sale"],
          orderId,
          lifetime: true
        })
        const at = yield* nowIso
        yield* listingRows.countSale({ id: listing.id, at })
        const deliveredId = yield* goods.deliver(listing, buyerId)
        const order: Order = {
          id: orderId,
          listingId: listing.id,
          buyerId,
          sellerId: listing.sellerId,
          kind: listing.kind,
          title: listing.title,
          priceCredits: listing.priceCredits,
          status: "delivered",
          deliveredId,
          createdAt: at
        }
        yield* orders.insert({ order, purchaseId: newId() })
        return { order, listing, wallets }
      })

    /**
     * Both wallets as the buy left them, each to its own being's tabs: the rows the transfer answered inside the
     * transaction (what it committed), or, for a buy of nothing, read.
     */
    const publishWallets = (order: Order, moved: ReadonlyArray<Wallet>) =>
      Effect.gen(function* () {
        const wallets = moved.length > 0 ? moved : yield* ledger.wallets([order.buyerId, order.sellerId])
        yield* Effect.forEach(
          wallets,
          (wallet) => bus.publish({ kind: "being", beingId: wallet.beingId }, { type: "wallet.updated", wallet }),
          { discard: true }
        )
      })

    const buy = (buyer: Caller, listingId: string) =>
      Effect.gen(function* () {
        // The scope closes after the commit or the rollback: a module folder written inside is taken back on a
        // rollback.
        // On PostgreSQL a buy the database aborted for a conflict (two buys opening the same wallets) runs again.
        const bought = yield* retryOnConflict(
          Effect.scoped(sql.withTransaction(buyInside(buyer.beingId, listingId)))
        ).pipe(
          orDieOnStorageFault,
          Effect.catchTag("ItemGone", () =>
            Effect.gen(function* () {
              // The thing sold is gone: the listing can never deliver again, so it is sold out from now on.
              yield* listingRows.setStatus({ id: listingId, status: "sold_out", at: yield* nowIso })
              return yield* Effect.fail(
                new ListingSoldOut({
                  message: "What this listing sold is no longer there; the listing is now sold out.",
                  details: { listingId, status: "sold_out" }
                })
              )
            })
          )
        )
        let order = bought.order
        if (order.kind === "service") {
          const projectId = yield* goods.startService(bought.listing, buyer)
          yield* orders.setDelivered({ orderId: order.id, deliveredId: projectId })
          order = { ...order, deliveredId: projectId }
        }
        // The wallets' events go out before the answer (a tab reads its new balance with it); the celebrations, a
        // message to each desktop's actor through the hush gate, were half a buy's time (docs/benchmarks.md): they
        // follow on their own fiber, and the buyer's tab hears them as `signal.created`.
        yield* Effect.forkDaemon(
          signals
            .celebrate(order)
            .pipe(Effect.catchAllCause((cause) => Effect.logWarning("A purchase's celebration was not raised", cause)))
        )
        yield* publishWallets(order, bought.wallets)
        return order
      }).pipe(spanNamed("market.buy"))

    const list = (caller: Caller, as: "buyer" | "seller", limit: number, offset: number) =>
      orders.list({ beingId: caller.beingId, as, limit, offset }).pipe(spanNamed("market.orders"))

    return { buy, list } as const
  })
}) {}
