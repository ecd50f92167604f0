/** The models' routes as other features read them (contract/routes.ts), from the settings, the ledger and Models. */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { Models } from "./contract/models.ts"
import { ModelRoutes, type TierRoute } from "./contract/routes.ts"
import { bindingOf, fallbackOf, isUsable, type Binding } from "./bindings.ts"
import { modelTiers } from "./contract/records.ts"
import { ProviderBindings } from "./provider-bindings.ts"
import { LlmLedger } from "./ledger.ts"
import { readPageImage } from "./ocr.ts"
import { priceOf } from "./prices.ts"
import { ModelSettings } from "./settings.ts"

export const ModelRoutesLive = Layer.effect(
  ModelRoutes,
  Effect.gen(function* () {
    const settings = yield* ModelSettings
    const ledger = yield* LlmLedger
    const models = yield* Models
    const owned = yield* ProviderBindings
    const routeOf = (binding: Binding): TierRoute => {
      const priced = priceOf(settings.llmPrices, binding)
      return {
        model: binding.model,
        baseUrl: binding.baseUrl,
        local: binding.local,
        usable: isUsable(binding),
        remedy: binding.remedy,
        usdPerMinute: priced.price.perMinute ?? 0,
        priced: priced.pricing !== "unknown"
      }
    }
    return {
      route: (tier) => {
        const binding = bindingOf(settings, owned.current(), tier)
        const fallback = fallbackOf(settings, binding)
        return { binding: routeOf(binding), fallback: fallback === null ? null : routeOf(fallback) }
      },
      keyConfigured: Option.isSome(settings.llmApiKey),
      demoBound: () => {
        const current = owned.current()
        return modelTiers.some((tier) => bindingOf(settings, current, tier).builtin)
      },
      spentToday: ledger.spentToday,
      dayCeilingUsd: settings.spendMaxDayUsd,
      readPage: (charged, png) => readPageImage(models, charged, png)
    }
  })
)
