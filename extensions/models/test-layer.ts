/**
 * Models for tests: the real service (bindings, ceilings, the SDK, the ledger), with nothing read
 * from the environment and every tier bound to one OpenAI-protocol server, which a test scripts
 * (test/support/openai-server.ts). We bind to a server rather than answer from a script in memory
 * so that what a test proves about models (the wire request, streaming, usage, prices, the
 * ledger, timeouts) is what the node does; a feature that only needs answers scripts the server.
 * Spend alerts are kept in `RaisedSpendAlerts` instead of reaching a desktop.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { modelTiers } from "./contract/records.ts"
import { modelsLayer } from "./models.ts"
import { ProviderBindings } from "./provider-bindings.ts"
import { ModelSettings, type ModelSettingsShape } from "./settings.ts"
import { SpendAlerts, type SpendAlert } from "./spend-alerts.ts"

/** The alerts a refused call raised, in order: what would have reached the owner's desktop. */
export class RaisedSpendAlerts extends Effect.Service<RaisedSpendAlerts>()("models/RaisedSpendAlerts", {
  sync: () => {
    const raised: Array<SpendAlert> = []
    return {
      raised: raised as ReadonlyArray<SpendAlert>,
      raise: (alert: SpendAlert) => Effect.sync(() => void raised.push(alert))
    }
  }
}) {}

const none = Option.none()

/** No key, no server, no tier of its own: what a node with no model settings has. */
export const unboundModelSettings: Partial<ModelSettingsShape> = {
  llmApiKey: none,
  llmBaseUrl: none,
  llmLocal: none,
  llmModel: none,
  llmTiers: Object.fromEntries(
    modelTiers.map((tier) => [tier, { model: none, baseUrl: none, apiKey: none, local: none }])
  ) as unknown as ModelSettingsShape["llmTiers"],
  localLlmFallback: false,
  llmPrices: {}
}

/** The default binding, which every tier without its own takes, at `baseUrl` as a keyed, priced remote provider. */
export const boundTo = (baseUrl: string, apiKey = "sk-test-default"): Partial<ModelSettingsShape> => ({
  llmBaseUrl: Option.some(baseUrl),
  llmApiKey: Option.some(Redacted.make(apiKey)),
  llmLocal: Option.some(false)
})

/**
 * Models and its ledger with every tier bound to the server at `baseUrl` (null: no model at all),
 * `settings` on top; needs the SQL client, migrated with the models' migrations.
 */
export const ModelsTest = (baseUrl: string | null, settings: Partial<ModelSettingsShape> = {}) =>
  modelsLayer.pipe(
    Layer.provideMerge(
      Layer.effect(SpendAlerts, RaisedSpendAlerts).pipe(Layer.provideMerge(RaisedSpendAlerts.Default))
    ),
    Layer.provide(
      ModelSettings.layer({ ...unboundModelSettings, ...(baseUrl === null ? {} : boundTo(baseUrl)), ...settings })
    ),
    // Nothing bound in Settings → Models: the tiers are the settings' above.
    Layer.provide(ProviderBindings.none)
  )
