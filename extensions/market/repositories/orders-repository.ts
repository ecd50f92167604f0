/**
 * `market_orders` and `market_purchases`: an order is the receipt both parties read; a purchase
 * is what the buyer now holds (a skill's access grant is one, its deliveredId the skill's name).
 * A unique index keeps a non-service listing to one purchase per buyer.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { operation } from "../../../kernel/repository.ts"
import { ListingKind, Order } from "../contract/records.ts"

const columns = `id, listing_id AS "listingId", buyer_id AS "buyerId", seller_id AS "sellerId", kind, title,
  price_credits AS "priceCredits", status, delivered_id AS "deliveredId", created_at AS "createdAt"`

export class OrdersRepository extends Effect.Service<OrdersRepository>()("market/OrdersRepository", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const all = sql.literal(columns)

    /** The order and its purchase row. */
    const insert = operation(
      "market.insertOrder",
      SqlSchema.void({
        Request: Schema.Struct({ order: Order, purchaseId: Schema.String }),
        execute: ({ order, purchaseId }) =>
          sql`INSERT INTO market_orders ${sql.insert({
            id: order.id,
            listing_id: order.listingId,
            buyer_id: order.buyerId,
            seller_id: order.sellerId,
            kind: order.kind,
            title: order.title,
            price_credits: order.priceCredits,
            status: order.status,
            delivered_id: order.deliveredId,
            created_at: order.createdAt
          })}`.pipe(
            Effect.zipRight(
              sql`INSERT INTO market_purchases ${sql.insert({
                id: purchaseId,
                order_id: order.id,
                buyer_id: order.buyerId,
                listing_id: order.listingId,
                kind: order.kind,
                delivered_id: order.deliveredId,
                created_at: order.createdAt
              })}`
            )
          )
      })
    )

    /** What a delivery made after the commit (a service's project), written on both rows. */
    const setDelivered = operation(
      "market.setDelivered",
      SqlSchema.void({
        Request: Schema.Struct({ orderId: Schema.String, deliveredId: Schema.String }),
        execute: ({ orderId, deliveredId }) =>
          sql`UPDATE market_orders SET delivered_id = ${deliveredId} WHERE id = ${orderId}`.pipe(
            Effect.zipRight(sql`UPDATE market_purchases SET delivered_id = ${deliveredId} WHERE order_id = ${orderId}`)
          )
      })
    )

    /** Whether the buyer holds a purchase of the listing. */
    const holds = operation(
      "market.holds",
      SqlSchema.findAll({
        Request: Schema.Struct({ buyerId: Schema.String, listingId: Schema.String }),
        Result: Schema.Struct({ kind: ListingKind }),
        execute: ({ buyerId, listingId }) => sql`SELECT kind FROM market_purchases
        WHERE buyer_id = ${buyerId} AND listing_id = ${listingId} LIMIT 1`
      })
    )

    const list = operation(
      "market.listOrders",
      SqlSchema.findAll({
        Request: Schema.Struct({
          beingId: Schema.String,
          as: Schema.Literal("buyer", "seller"),
          limit: Schema.Int,
          offset: Schema.Int
        }),
        Result: Order,
        execute: ({ beingId, as, limit, offset }) => sql`SELECT ${all} FROM market_orders
        WHERE ${as === "buyer" ? sql`buyer_id = ${beingId}` : sql`seller_id = ${beingId}`}
        ORDER BY created_at DESC, id DESC LIMIT ${limit} OFFSET ${offset}`
      })
    )

    return { insert, setDelivered, holds, list } as const
  })
}) {}
