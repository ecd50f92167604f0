/**
 * The ledger's tables: `market_wallets` (one account per being, and the node's `mint`) and
 * `market_ledger` (one row per side of a movement). A debit is a guarded UPDATE, so a balance
 * that would go below zero is answered here as "no row", inside whatever transaction holds it.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { isIn, operation } from "../../../kernel/repository.ts"
import { LedgerEntry, LedgerReason, Wallet } from "../contract/records.ts"

export const MINT = "mint"

const Account = Schema.Struct({ account: Schema.String })

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

    const walletColumns = sql.literal(`account AS "beingId", balance, earned, spent, updated_at AS "updatedAt"`)

    const findWallet = operation(
      "market.findWallet",
      SqlSchema.findOne({
        Request: Schema.String,
        Result: Wallet,
        execute: (account) => sql`SELECT ${walletColumns} FROM market_wallets WHERE account = ${account}`
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
     * Opens every account of `accounts` that has none, in one statement and in one order (so two transactions opening
     * the same new accounts on PostgreSQL wait for each other rather than deadlock); a row back for each it opened.
     */
    const openWallets = operation(
      "market.openWallets",
      SqlSchema.findAll({
        Request: Schema.Struct({ accounts: Schema.Array(Schema.String), at: Schema.String }),
        Result: Account,
        execute: ({ accounts, at }) =>
          sql`INSERT INTO market_wallets ${sql.insert(
            accounts.map((account) => ({ account, balance: 0, earned: 0, spent: 0, updated_at: at }))
          )} ON CONFLICT (account) DO NOTHING RETURNING account`
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

    /**
     * Moves `amount` from one open account to another in one statement: both rows or neither, answered as they now
     * stand (payer first). No row back when the payer does not hold the amount (the mint always does). The payer's
     * balance is read by a subquery, which both SQLite and PostgreSQL evaluate once, before the statement changes any
     * row; on PostgreSQL the caller holds both rows (`lockWallets`), so no other transaction moves them meanwhile.
     */
    const transfer = operation(
      "market.transfer",
      SqlSchema.findAll({
        Request: Schema.Struct({
          from: Schema.String,
          to: Schema.String,
          amount: Schema.Int,
          counts: Schema.Boolean,
          at: Schema.String
        }),
        Result: Wallet,
        execute: ({ from, to, amount, counts, at }) => {
          const lifetime = counts ? amount : 0
          // Each parameter meets a column or a number, so PostgreSQL knows every parameter's type.
          const holds =
            from === MINT ? sql`` : sql`AND (SELECT balance FROM market_wallets WHERE account = ${from}) >= ${amount}`
          return sql`UPDATE market_wallets
        SET balance = balance + ${amount} * CASE WHEN account = ${from} THEN -1 ELSE 1 END,
          spent = spent + CASE WHEN account = ${from} THEN ${lifetime} ELSE 0 END,
          earned = earned + CASE WHEN account = ${from} THEN 0 ELSE ${lifetime} END,
          updated_at = ${at}
        WHERE account IN (${from}, ${to}) ${holds}
        RETURNING ${walletColumns}`.pipe(
            Effect.map((rows) => [...rows].sort((a, b) => (a["beingId"] === from ? -1 : b["beingId"] === from ? 1 : 0)))
          )
        }
      })
    )

    /** The accounts' wallets, in one statement (in no particular order). */
    const findWallets = operation(
      "market.findWallets",
      SqlSchema.findAll({
        Request: Schema.Array(Schema.String),
        Result: Wallet,
        execute: (accounts) => sql`SELECT ${walletColumns} FROM market_wallets WHERE ${isIn(sql, "account", accounts)}`
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

    return {
      findWallet,
      findWallets,
      openWallet,
      openWallets,
      lockWallets,
      transfer,
      insertEntries,
      paidTo,
      entries
    } as const
  })
}) {}
