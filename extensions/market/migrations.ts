/**
 * The market's tables (08xx): the ledger (an account per being plus the node's mint, and one
 * entry per side of each movement), listings, orders with their purchase rows, and reviews.
 * Amounts are whole credits. The CHECK on wallets is the ledger's last line: a being's balance
 * can never be written below zero, whatever a service does (the mint alone goes negative: it is
 * where every credit came from).
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import { columnTypes } from "../../kernel/column-types.ts"
import type { Migrations } from "../../kernel/database.ts"

/**
 * The ledger's reasons made these. PostgreSQL alters the CHECK; SQLite cannot, so there the table
 * is made again with it and the rows copied (nothing references it).
 */
const ledgerReasons = (reasons: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const check = sql.literal(`reason IN (${reasons.map((reason) => `'${reason}'`).join(", ")})`)
    yield* sql.onDialectOrElse({
      pg: () =>
        Effect.gen(function* () {
          yield* sql`ALTER TABLE market_ledger DROP CONSTRAINT market_ledger_reason_check`
          yield* sql`ALTER TABLE market_ledger ADD CONSTRAINT market_ledger_reason_check CHECK (${check})`
        }),
      orElse: () =>
        Effect.gen(function* () {
          yield* sql`CREATE TABLE market_ledger_next (
            id TEXT PRIMARY KEY,
            movement_id TEXT NOT NULL,
            account TEXT NOT NULL REFERENCES market_wallets (account),
            counterparty TEXT NOT NULL,
            amount INTEGER NOT NULL,
            reason TEXT NOT NULL CHECK (${check}),
            order_id TEXT,
            created_at TEXT NOT NULL
          )`
          yield* sql`INSERT INTO market_ledger_next (id, movement_id, account, counterparty, amount, reason, order_id, created_at)
            SELECT id, movement_id, account, counterparty, amount, reason, order_id, created_at FROM market_ledger`
          yield* sql`DROP TABLE market_ledger`
          yield* sql`ALTER TABLE market_ledger_next RENAME TO market_ledger`
          yield* sql`CREATE INDEX market_ledger_by_account ON market_ledger (account, created_at)`
        })
    })
  })

export const marketMigrations: Migrations = {
  "0800_market_ledger": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const t = yield* columnTypes
    yield* sql`CREATE TABLE market_wallets (
      account TEXT PRIMARY KEY,
      balance ${t.bigint} NOT NULL,
      earned ${t.bigint} NOT NULL DEFAULT 0,
      spent ${t.bigint} NOT NULL DEFAULT 0,
      updated_at TEXT NOT NULL,
      CHECK (account = 'mint' OR balance >= 0)
    )`
    yield* sql`CREATE TABLE market_ledger (
      id TEXT PRIMARY KEY,
      movement_id TEXT NOT NULL,
      account TEXT NOT NULL REFERENCES market_wallets (account),
      counterparty TEXT NOT NULL,
      amount ${t.bigint} NOT NULL,
      reason TEXT NOT NULL CHECK (reason IN ('starting_credit', 'purchase', 'sale')),
      order_id TEXT,
      created_at TEXT NOT NULL
    )`
    yield* sql`CREATE INDEX market_ledger_by_account ON market_ledger (account, created_at)`
  }),
  "0801_market_listings": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const t = yield* columnTypes
    yield* sql`CREATE TABLE market_listings (
      id TEXT PRIMARY KEY,
      seller_id TEXT NOT NULL REFERENCES beings (id) ON DELETE CASCADE,
      kind TEXT NOT NULL CHECK (kind IN ('generator', 'skill', 'agent', 'service', 'theme', 'module')),
      ref_id TEXT,
      title TEXT NOT NULL,
      description TEXT NOT NULL,
      cover TEXT,
      price_credits INTEGER NOT NULL CHECK (price_credits >= 0),
      rating ${t.double} NOT NULL DEFAULT 0,
      rating_count INTEGER NOT NULL DEFAULT 0,
      sales INTEGER NOT NULL DEFAULT 0,
      tags TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('active', 'paused', 'sold_out')),
      brief TEXT,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`
    yield* sql`CREATE INDEX market_listings_by_rank ON market_listings (status, sales DESC, rating DESC, created_at DESC)`
    yield* sql`CREATE INDEX market_listings_by_seller ON market_listings (seller_id)`
  }),
  "0802_market_orders": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    // Orders outlive their listing (a deleted listing leaves its buyers' history): no foreign key.
    yield* sql`CREATE TABLE market_orders (
      id TEXT PRIMARY KEY,
      listing_id TEXT NOT NULL,
      buyer_id TEXT NOT NULL,
      seller_id TEXT NOT NULL,
      kind TEXT NOT NULL,
      title TEXT NOT NULL,
      price_credits INTEGER NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('delivered')),
      delivered_id TEXT,
      created_at TEXT NOT NULL
    )`
    yield* sql`CREATE INDEX market_orders_by_buyer ON market_orders (buyer_id, created_at)`
    yield* sql`CREATE INDEX market_orders_by_seller ON market_orders (seller_id, created_at)`
    yield* sql`CREATE TABLE market_purchases (
      id TEXT PRIMARY KEY,
      order_id TEXT NOT NULL REFERENCES market_orders (id),
      buyer_id TEXT NOT NULL,
      listing_id TEXT NOT NULL,
      kind TEXT NOT NULL,
      delivered_id TEXT,
      created_at TEXT NOT NULL
    )`
    // A non-service listing is bought once per buyer: the database holds the rule too.
    yield* sql`CREATE UNIQUE INDEX market_purchases_once ON market_purchases (buyer_id, listing_id) WHERE kind <> 'service'`
    yield* sql`CREATE INDEX market_purchases_by_listing ON market_purchases (listing_id, buyer_id)`
  }),
  "0803_market_reviews": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`CREATE TABLE market_reviews (
      id TEXT PRIMARY KEY,
      listing_id TEXT NOT NULL REFERENCES market_listings (id) ON DELETE CASCADE,
      author_id TEXT NOT NULL,
      rating INTEGER NOT NULL CHECK (rating BETWEEN 1 AND 5),
      body TEXT NOT NULL,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      UNIQUE (listing_id, author_id)
    )`
  }),
  "0804_market_moderation": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    // Moderation's own state, apart from the seller's status: the seller's edits cannot lift it.
    yield* sql`ALTER TABLE market_listings ADD COLUMN moderated_at TEXT`
    yield* sql`ALTER TABLE market_listings ADD COLUMN moderated_by TEXT`
  }),
  // A new reason, `directory` (a federation directory's registration credits).
  "0805_market_ledger_directory": ledgerReasons(["starting_credit", "purchase", "sale", "directory"]),
  // A new reason, `plugin` (a plugin's spend of a being's credits through its `credits` grant).
  "0806_market_ledger_plugin": ledgerReasons(["starting_credit", "purchase", "sale", "directory", "plugin"])
}
