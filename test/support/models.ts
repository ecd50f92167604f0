/**
 * Models for service tests: the models' Test layer (extensions/models/test-layer.ts) over a fresh
 * in-memory SQLite ledger, with settings given per test, and scripted providers to bind it to.
 */
import { afterAll, beforeAll, beforeEach } from "vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { databaseLayer } from "../../kernel/database.ts"
import { Settings } from "../../kernel/settings.ts"
import { modelTiers, type ModelTier } from "../../extensions/models/contract/records.ts"
import type { ModelSettingsShape } from "../../extensions/models/settings.ts"
import { modelMigrations } from "../../extensions/models/migrations.ts"
import { LlmLedger } from "../../extensions/models/ledger.ts"
import { Models, type ModelsShape } from "../../extensions/models/contract/models.ts"
import type { SpendAlert } from "../../extensions/models/spend-alerts.ts"
import { boundTo, ModelsTest, RaisedSpendAlerts, unboundModelSettings } from "../../extensions/models/test-layer.ts"
import { startOpenAiServer, type OpenAiServer } from "./openai-server.ts"

export interface TierOverride {
  readonly model?: string
  readonly baseUrl?: string
  readonly apiKey?: string
  readonly local?: boolean
}

/** `llmTiers` with the given tiers' own bindings and nothing set for the others. */
export const tierSettings = (
  overrides: Partial<Record<ModelTier, TierOverride>> = {}
): ModelSettingsShape["llmTiers"] =>
  Object.fromEntries(
    modelTiers.map((tier) => {
      const own = overrides[tier] ?? {}
      return [
        tier,
        {
          model: Option.fromNullable(own.model),
          baseUrl: Option.fromNullable(own.baseUrl),
          apiKey: Option.map(Option.fromNullable(own.apiKey), Redacted.make),
          local: Option.fromNullable(own.local)
        }
      ]
    })
  ) as unknown as ModelSettingsShape["llmTiers"]

/** The default binding at a scripted server that counts as a remote provider (priced, keyed). */
export const remoteDefault = boundTo

/** Nothing about models comes from the test process's environment. */
export const noModelSettings = unboundModelSettings

/**
 * Two scripted providers for the whole test file, reset before each test: `remote` (declare it
 * remote with LLM_LOCAL=false) and `local` (read as local from its address).
 */
export const scriptedProviders = () => {
  const servers = {} as { remote: OpenAiServer; local: OpenAiServer }
  beforeAll(async () => {
    servers.remote = await startOpenAiServer()
    servers.local = await startOpenAiServer()
  })
  afterAll(async () => {
    await servers.remote.close()
    await servers.local.close()
  })
  beforeEach(() => {
    servers.remote.reset()
    servers.local.reset()
  })
  return servers
}

/**
 * Runs a test body against a fresh Models (the models' Test layer over an in-memory ledger) with
 * these settings and no model otherwise; hands it the ledger and the raised alerts.
 */
export const withModels = <A, E>(
  settings: Partial<ModelSettingsShape>,
  body: (context: { models: ModelsShape; ledger: LlmLedger; raised: ReadonlyArray<SpendAlert> }) => Effect.Effect<A, E>
) =>
  Effect.gen(function* () {
    return yield* body({ models: yield* Models, ledger: yield* LlmLedger, raised: (yield* RaisedSpendAlerts).raised })
  }).pipe(
    Effect.provide(
      ModelsTest(null, settings).pipe(
        Layer.provide(databaseLayer(modelMigrations, { filename: ":memory:" })),
        Layer.provide(Settings.layerWith({}))
      )
    )
  )
