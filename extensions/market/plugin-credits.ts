/**
 * The `credits` capability's ledger side: each plugin has an account of its own on the ledger,
 * `plugin:<plugin id>`, opened empty (no starting credit) the first time it is touched. A plugin's
 * spend moves credits from the calling being's wallet to that account, a movement like any other
 * (two entries, reason `plugin`), and only within the grant's limit: at most
 * PLUGIN_CREDITS_DAILY_LIMIT of one being's credits in any 24 hours, counted from the ledger.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { EventBus } from "../../kernel/events.ts"
import { orDieOnStorageFault } from "../../kernel/repository.ts"
import { retryOnConflict } from "../../kernel/transaction-retry.ts"
import { PluginCreditLimit } from "./contract/errors.ts"
import type { PluginCreditsShape } from "./contract/market.ts"
import { Ledger } from "./ledger.ts"
import { LedgerRepository } from "./repositories/ledger-repository.ts"
import { MarketSettings } from "./settings.ts"
import { spanNamed } from "../../kernel/spans.ts"

/** The ledger account a plugin's spends are paid into. */
export const pluginAccount = (pluginId: string) => `plugin:${pluginId}`

const dayMs = 24 * 60 * 60 * 1000

export const makePluginCredits = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const ledger = yield* Ledger
  const repository = yield* LedgerRepository
  const bus = yield* EventBus
  const { pluginCreditsDailyLimit: limit } = yield* MarketSettings

  /** What the plugin spent of the being's wallet in the last 24 hours. */
  const spentToday = (account: string, beingId: string) =>
    Effect.flatMap(Clock.currentTimeMillis, (now) =>
      repository.paidTo({
        account: beingId,
        counterparty: account,
        reason: "plugin",
        since: new Date(now - dayMs).toISOString()
      })
    ).pipe(
      Effect.map((row) => row.paid),
      Effect.orDie
    )

  const balanceOf = (account: string) =>
    Effect.map(repository.findWallet(account), Option.match({ onNone: () => 0, onSome: (wallet) => wallet.balance }))

  const standing = (pluginId: string, beingId: string) =>
    Effect.gen(function* () {
      const account = pluginAccount(pluginId)
      const spent = yield* spentToday(account, beingId)
      return {
        account,
        balance: yield* balanceOf(account),
        limit,
        spentToday: spent,
        remainingToday: Math.max(0, limit - spent)
      }
    })

  const spendInside = (pluginId: string, beingId: string, amount: number) =>
    Effect.gen(function* () {
      const account = pluginAccount(pluginId)
      yield* ledger.open(beingId)
      yield* repository.openWallet({ account, at: new Date(yield* Clock.currentTimeMillis).toISOString() })
      yield* ledger.lock([account, beingId].sort())
      const spent = yield* spentToday(account, beingId)
      if (spent + amount > limit) {
        return yield* new PluginCreditLimit({
          message:
            `This plugin may spend at most ${limit} credits of your wallet in 24 hours; ` +
            `it has spent ${spent}, so ${Math.max(0, limit - spent)} remain, not ${amount}.`,
          details: { limit, spentToday: spent, amount }
        })
      }
      yield* ledger.move({
        from: beingId,
        to: account,
        amount,
        reasons: ["plugin", "plugin"],
        orderId: null,
        lifetime: true
      })
    })

  const spend: PluginCreditsShape["spend"] = (pluginId, beingId, amount) =>
    Effect.gen(function* () {
      yield* retryOnConflict(sql.withTransaction(spendInside(pluginId, beingId, amount))).pipe(orDieOnStorageFault)
      const wallet = yield* ledger.wallet(beingId)
      yield* bus.publish({ kind: "being", beingId }, { type: "wallet.updated", wallet })
      return yield* standing(pluginId, beingId)
    }).pipe(spanNamed("market.pluginSpend", { attributes: { pluginId } }))

  return {
    standing: (pluginId, beingId) => standing(pluginId, beingId).pipe(spanNamed("market.pluginStanding")),
    spend
  } satisfies PluginCreditsShape
})
