/**
 * The credit ledger (docs/decisions.md "Market and ledger"): double-entry, every movement a pair
 * of entries (one on each account, amounts summing to zero) written in one transaction with the
 * two balances, so the sum over every account, the mint's included, is always zero. A being's
 * account is opened the first time anything touches its wallet, and that opening pays it
 * STARTING_CREDITS from the mint, once: the insert that opens it is the guard.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { InsufficientCredits } from "./contract/errors.ts"
import { orDieOnStorageFault } from "../../kernel/repository.ts"
import { nowIso } from "../../kernel/time.ts"
import type { LedgerReason, Wallet } from "./contract/records.ts"
import { newId, orderedId } from "./ids.ts"
import { LedgerRepository, MINT } from "./repositories/ledger-repository.ts"
import { MarketSettings } from "./settings.ts"
import { spanNamed } from "../../kernel/spans.ts"

export interface Movement {
  readonly from: string
  readonly to: string
  readonly amount: number
  /** The reason written on the debited side, then on the credited side. */
  readonly reasons: readonly [LedgerReason, LedgerReason]
  readonly orderId: string | null
  /** Whether the movement counts in the payer's `spent` and the payee's `earned` (a starting credit does not). */
  readonly lifetime: boolean
}

export const insufficientCredits = (balance: number, price: number) =>
  new InsufficientCredits({
    message: `This costs ${price} credits and your wallet holds ${balance}: ${price - balance} more needed.`,
    details: { balance, price, missing: price - balance }
  })

export class Ledger extends Effect.Service<Ledger>()("market/Ledger", {
  dependencies: [LedgerRepository.Default],
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const repository = yield* LedgerRepository
    const { startingCredits } = yield* MarketSettings

    /**
     * Moves credits between two open accounts: both balances and both entries, or nothing. Run
     * inside the caller's transaction; fails `insufficient_credits` when the payer lacks them.
     * Answers both wallets as the movement left them, payer first (none for a movement of nothing).
     */
    const move = (movement: Movement): Effect.Effect<ReadonlyArray<Wallet>, InsufficientCredits> =>
      Effect.gen(function* () {
        if (movement.amount === 0) return []
        // One account on both sides is no movement: the one-statement transfer would only debit it.
        if (movement.from === movement.to) return yield* Effect.dieMessage("a movement from an account to itself")
        const at = yield* nowIso
        const moved = yield* repository.transfer({
          from: movement.from,
          to: movement.to,
          amount: movement.amount,
          counts: movement.lifetime,
          at
        })
        if (moved.length === 0) {
          const wallet = yield* repository.findWallet(movement.from)
          return yield* Effect.fail(
            insufficientCredits(Option.match(wallet, { onNone: () => 0, onSome: (w) => w.balance }), movement.amount)
          )
        }
        const movementId = newId()
        const side = (account: string, counterparty: string, amount: number, reason: LedgerReason) => ({
          id: orderedId(),
          movementId,
          account,
          counterparty,
          amount,
          reason,
          orderId: movement.orderId,
          createdAt: at
        })
        yield* repository.insertEntries([
          side(movement.from, movement.to, -movement.amount, movement.reasons[0]),
          side(movement.to, movement.from, movement.amount, movement.reasons[1])
        ])
        return moved
      })

    /**
     * Opens the beings' accounts that have none (the mint's too), in one statement, paying each opened one the
     * starting credit from the mint; inside any transaction.
     */
    const open = (...beingIds: ReadonlyArray<string>) =>
      Effect.gen(function* () {
        const at = yield* nowIso
        // The mint first, then in one order: two transactions opening the same accounts take them alike.
        const accounts = [MINT, ...[...new Set(beingIds)].filter((id) => id !== MINT).sort()]
        const opened = yield* repository.openWallets({ accounts, at })
        for (const { account } of opened) {
          if (account === MINT) continue
          yield* move({
            from: MINT,
            to: account,
            amount: startingCredits,
            reasons: ["starting_credit", "starting_credit"],
            orderId: null,
            lifetime: false
          })
        }
      })

    /** The being's wallet, opened (and credited) on first touch. */
    const wallet = (beingId: string): Effect.Effect<Wallet> =>
      Effect.gen(function* () {
        const found = yield* repository.findWallet(beingId)
        if (Option.isSome(found)) return found.value
        yield* sql
          .withTransaction(open(beingId))
          .pipe(Effect.catchTag("InsufficientCredits", Effect.die), orDieOnStorageFault)
        return Option.getOrThrow(yield* repository.findWallet(beingId))
      }).pipe(spanNamed("market.wallet"))

    const entries = (beingId: string, limit: number, offset: number) =>
      Effect.zipRight(wallet(beingId), repository.entries({ account: beingId, limit, offset })).pipe(
        spanNamed("market.ledger")
      )

    /** Holds the open accounts' wallets until the transaction ends (PostgreSQL; nothing on SQLite). */
    const lock = (accounts: ReadonlyArray<string>) => repository.lockWallets(accounts)

    /** The beings' wallets as they stand, in one statement. */
    const wallets = (beingIds: ReadonlyArray<string>) => repository.findWallets(beingIds)

    return { move, open, lock, wallet, wallets, entries } as const
  })
}) {}
