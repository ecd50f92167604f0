/** The market's settings (docs/operations.md): the credits every being starts with, and what a plugin may spend. */
import * as Config from "effect/Config"
import * as Context from "effect/Context"
import { settingsLayer } from "../../kernel/settings.ts"

export const marketSettingsConfig = Config.all({
  /** Credited once to each being from the node's mint, the first time its wallet is touched. */
  startingCredits: Config.integer("STARTING_CREDITS").pipe(
    Config.validate({
      message: "STARTING_CREDITS must be between 0 and 1000000",
      validation: (n) => n >= 0 && n <= 1_000_000
    }),
    Config.withDefault(100)
  ),
  /** What a plugin granted `credits` may spend of one being's wallet in any 24 hours (docs/decisions.md). */
  pluginCreditsDailyLimit: Config.integer("PLUGIN_CREDITS_DAILY_LIMIT").pipe(
    Config.validate({
      message: "PLUGIN_CREDITS_DAILY_LIMIT must be between 0 and 1000000",
      validation: (n) => n >= 0 && n <= 1_000_000
    }),
    Config.withDefault(50)
  )
})

export type MarketSettingsShape = Config.Config.Success<typeof marketSettingsConfig>

export class MarketSettings extends Context.Tag("market/MarketSettings")<MarketSettings, MarketSettingsShape>() {
  static readonly layer = (overrides?: Partial<MarketSettingsShape>) =>
    settingsLayer(MarketSettings, marketSettingsConfig, overrides)
}
