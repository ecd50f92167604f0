/**
 * The `credits` capability as plugins get it: the plugin's own ledger account read, and a spend
 * of the calling being's credits into it within the grant's limit (plugin-credits.ts). It acts
 * for the being of a call only: outside a call (`activate`) there is no wallet to spend, so it is
 * absent. A refusal (the limit, the balance, an amount that is not a whole number above 0) says
 * plainly why.
 */
import * as Effect from "effect/Effect"
import type { CreditsAdapter } from "../../kernel/extensions/adapters.ts"
import { refused, refusedWithMessage } from "../../kernel/extensions/capability-refused.ts"
import type { CallScope, PluginIdentity } from "../../kernel/extensions/context.ts"
import { Market } from "./contract/market.ts"

export const creditsAdapterFactory = Effect.map(
  Market,
  ({ pluginCredits }) =>
    (plugin: PluginIdentity, scope: CallScope): CreditsAdapter | undefined => {
      const beingId = scope.beingId
      if (beingId === null) return undefined
      return {
        balance: () => pluginCredits.standing(plugin.id, beingId),
        spend: (amount) =>
          typeof amount === "number" && Number.isSafeInteger(amount) && amount > 0
            ? refusedWithMessage(pluginCredits.spend(plugin.id, beingId, amount))
            : Effect.fail(
                refused(`credits.spend takes a whole number of credits above 0, got ${String(amount).slice(0, 40)}.`)
              )
      }
    }
)
