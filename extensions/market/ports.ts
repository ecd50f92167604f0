/**
 * What the market needs from features it does not own, bound by the host (extensions/market/goods.ts,
 * extensions/market/celebrations.ts): the things sold (checking a seller owns what a listing names,
 * delivering a copy to a buyer, starting a bought service's project) and the desktop's signals.
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import type { InvalidManifest } from "../../kernel/contract/plugin-errors.ts"
import type { Caller } from "../accounts/contract/session.ts"
import type {
  BundleTooLarge,
  ModuleAlreadyAvailable,
  ModuleDeliveryFailed,
  NotABundle,
  NotAModule,
  RefNotFound,
  RefNotOwned,
  SkillNotRegistered
} from "./contract/errors.ts"
import type { Listing, ListingKind, Order } from "./contract/records.ts"

/** The thing a listing sells is gone (its seller deleted it): the listing is sold out. */
export interface ItemGone {
  readonly _tag: "ItemGone"
}

export interface MarketGoodsShape {
  /**
   * Refuses a refId the seller does not own (or, for a skill, one no skill registered here has; for a
   * module, a folder that is no module bundle, its manifest read as an install reads it).
   */
  readonly checkRef: (
    kind: ListingKind,
    sellerId: string,
    refId: string
  ) => Effect.Effect<
    void,
    RefNotFound | RefNotOwned | SkillNotRegistered | NotABundle | NotAModule | BundleTooLarge | InvalidManifest
  >
  /**
   * Delivers the listing's thing to the buyer inside the buy's transaction; answers what the buyer
   * received (an id, a skill's name, a module's folder), or null when delivery comes after the
   * commit (a service). What lies outside the database (a module's folder) is taken back when the
   * scope, which closes after the transaction, closes with a failure. A module's delivery may be
   * refused (its folder already there) or fail (the plugin folder unwritable).
   */
  readonly deliver: (
    listing: Listing,
    buyerId: string
  ) => Effect.Effect<string | null, ItemGone | ModuleAlreadyAvailable | ModuleDeliveryFailed, Scope.Scope>
  /** A bought service: a real studio project from the listing's brief, started; answers its id. */
  readonly startService: (listing: Listing, buyer: Caller) => Effect.Effect<string>
}

export class MarketGoods extends Context.Tag("market/MarketGoods")<MarketGoods, MarketGoodsShape>() {}

export interface PurchaseSignalsShape {
  /** The celebration on the buyer's and the seller's desktops; a failure to raise is logged, never the buy's. */
  readonly celebrate: (order: Order) => Effect.Effect<void>
}

export class PurchaseSignals extends Context.Tag("market/PurchaseSignals")<PurchaseSignals, PurchaseSignalsShape>() {}
