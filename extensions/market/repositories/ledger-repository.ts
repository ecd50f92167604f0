/**
 * The ledger's tables: `market_wallets` (one account per being, and the node's `mint`) and
 * `market_ledger` (one row per side of a movement). A debit is a guarded UPDATE, so a balance
 * that would go below zero is answered here as "no row", inside whatever transaction holds it.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { operation } from "../../../kernel/repository.ts"
import { LedgerEntry, LedgerReason, Wallet } from "../contract/records.ts"

export const MINT = "mint"

const Account = Schema.Struct({ account: Schema.String })
const Amount = Schema.Struct({ account: Schema.String, amount: Schema.Int, counts: Schema.Boolean, at: Schema.String })

const Entry = Schema.Struct({
  id: Schema.String,
  movementId: Schema.String,
  account: Schema.String,
  counterparty: Schema.String,
  amount: Schema.Int,
  reason: LedgerReason,
  orderId: Schema.NullOr(Schema.String),
  createdAt: Schema.String
})

export class LedgerRepository extends Effect.Service<LedgerRepository>()("market/LedgerRepository", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const findWallet = operation(
      "market.findWallet",
      SqlSchema.findOne({
        Request: Schema.String,
        Result: Wallet,
        execute: (account) => sql`SELECT account AS "beingId", balance, earned, spent, updated_at AS "updatedAt"
        FROM market_wallets WHERE account = ${account}`
      })
    )

    /** Opens an empty account; a row back only when this call opened it (so a starting credit is paid once). */
    const openWallet = operation(
      "market.openWallet",
      SqlSchema.findAll({
        Request: Schema.Struct({ account: Schema.String, at: Schema.String }),
        Result: Account,
        execute: ({ account, at }) => sql`INSERT INTO market_wallets (account, balance, earned, spent, updated_at)
        VALUES (${account}, 0, 0, 0, ${at}) ON CONFLICT (account) DO NOTHING RETURNING account`
      })
    )

    /**
     * Holds the accounts' rows until the transaction ends, so a buy's checks (a copy already owned)
     * read what every earlier buy of those accounts wrote. PostgreSQL (READ COMMITTED) takes row locks,
     * in one order (by account) so two buys locking the same pair cannot deadlock; SQLite runs one
     * transaction at a time and has no `FOR UPDATE`, so it has nothing to lock.
     */
    const lockWallets = operation("market.lockWallets", (accounts: ReadonlyArray<string>) =>
      sql.onDialectOrElse({
        pg: () =>
          Effect.asVoid(
            sql`SELECT account FROM market_wallets WHERE account IN ${sql.in(accounts)} ORDER BY account FOR UPDATE`
          ),
        orElse: () => Effect.void
      })
    )

    /** Takes `amount` from an account that holds it (the mint always does); no row back when it does not. */
    const debit = operation(
      "market.debit",
      SqlSchema.findAll({
        Request: Amount,
        Result: Account,
        execute: ({ account, amount, counts, at }) => sql`UPDATE market_wallets
        SET balance = balance - ${amount}, spent = spent + ${counts ? amount : 0}, updated_at = ${at}
        WHERE account = ${account} AND (account = ${MINT} OR balance >= ${amount}) RETURNING account`
      })
    )

    const credit = operation(
      "market.credit",
      SqlSchema.findAll({
        Request: Amount,
        Result: Account,
        execute: ({ account, amount, counts, at }) => sql`UPDATE market_wallets
        SET balance = balance + ${amount}, earned = earned + ${counts ? amount : 0}, updated_at = ${at}
        WHERE account = ${account} RETURNING account`
      })
    )

    const insertEntries = operation(
      "market.insertEntries",
      SqlSchema.void({
        Request: Schema.Array(Entry),
        execute: (entries) =>
          sql`INSERT INTO market_ledger ${sql.insert(
            entries.map((entry) => ({
              id: entry.id,
              movement_id: entry.movementId,
              account: entry.account,
              counterparty: entry.counterparty,
              amount: entry.amount,
              reason: entry.reason,
              order_id: entry.orderId,
              created_at: entry.createdAt
            }))
          )}`
      })
    )

    /** What an account paid one counterparty for one reason since a time (a plugin's spend of a being's wallet). */
    const paidTo = operation(
      "market.paidTo",
      SqlSchema.single({
        Request: Schema.Struct({
          account: Schema.String,
          counterparty: Schema.String,
          reason: LedgerReason,
          since: Schema.String
        }),
        Result: Schema.Struct({ paid: Schema.Number }),
        execute: ({
          account,
          counterparty,
          reason,
          since
        }) => sql`SELECT CAST(COALESCE(-SUM(amount), 0) AS INTEGER) AS paid
        FROM market_ledger WHERE account = ${account} AND counterparty = ${counterparty} AND reason = ${reason}
          AND amount < 0 AND created_at >= ${since}`
      })
    )

    /** An account's entries, newest first. */
    const entries = operation(
      "market.entries",
      SqlSchema.findAll({
        Request: Schema.Struct({ account: Schema.String, limit: Schema.Int, offset: Schema.Int }),
        Result: LedgerEntry,
        execute: ({
          account,
          limit,
          offset
        }) => sql`SELECT id, movement_id AS "movementId", amount, counterparty, reason,
          order_id AS "orderId", created_at AS "createdAt"
        FROM market_ledger WHERE account = ${account} ORDER BY created_at DESC, id DESC LIMIT ${limit} OFFSET ${offset}`
      })
    )

    return { findWallet, openWallet, lockWallets, debit, credit, insertEntries, paidTo, entries } as const
  })
}) {}
