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
     */
    const move = (movement: Movement) =>
      Effect.gen(function* () {
        if (movement.amount === 0) return
        const at = yield* nowIso
        const debited = yield* repository.debit({
          account: movement.from,
          amount: movement.amount,
          counts: movement.lifetime,
          at
        })
        if (debited.length === 0) {
          const wallet = yield* repository.findWallet(movement.from)
          return yield* Effect.fail(
            insufficientCredits(Option.match(wallet, { onNone: () => 0, onSome: (w) => w.balance }), movement.amount)
          )
        }
        yield* repository.credit({ account: movement.to, amount: movement.amount, counts: movement.lifetime, at })
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
      })

    /** Opens the being's account if it has none, paying the starting credit from the mint; inside any transaction. */
    const open = (beingId: string) =>
      Effect.gen(function* () {
        const at = yield* nowIso
        yield* repository.openWallet({ account: MINT, at })
        const opened = yield* repository.openWallet({ account: beingId, at })
        if (opened.length === 0) return
        yield* move({
          from: MINT,
          to: beingId,
          amount: startingCredits,
          reasons: ["starting_credit", "starting_credit"],
          orderId: null,
          lifetime: false
        })
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
      }).pipe(Effect.withSpan("market.wallet"))

    const entries = (beingId: string, limit: number, offset: number) =>
      Effect.zipRight(wallet(beingId), repository.entries({ account: beingId, limit, offset })).pipe(
        Effect.withSpan("market.ledger")
      )

    /** Holds the open accounts' wallets until the transaction ends (PostgreSQL; nothing on SQLite). */
    const lock = (accounts: ReadonlyArray<string>) => repository.lockWallets(accounts)

    return { move, open, lock, wallet, entries } as const
  })
}) {}
