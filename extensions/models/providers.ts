/**
 * The owner's model providers and tier bindings (Settings → Models, docs/api.md "Models"): the
 * providers added here, the environment's `LLM_*` servers shown read-only, the built-in demo
 * models; each tier bound to one of them, or left to the environment. Keys are sealed before they
 * are stored (twin's SecretSealer) and appear in no answer. Every change is read again by this
 * process and told to the others (provider-bindings.ts), so the next call uses it everywhere.
 */
import { randomUUID } from "node:crypto"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { nowIso } from "../../kernel/time.ts"
import { SecretSealer } from "../twin/contract/secret-sealer.ts"
import { bindingOf, ENVIRONMENT_PROVIDER_ID, environmentProviderId, environmentServer, isUsable } from "./bindings.ts"
import { ProviderInUse, ProviderNotFound, ProviderReadOnly } from "./contract/errors.ts"
import {
  DEMO_MODEL,
  DEMO_PROVIDER_ID,
  type BindTier,
  type LlmProvider,
  type NewProvider,
  type ProviderChange,
  type ProviderCheck,
  type TierState
} from "./contract/providers.ts"
import { modelTiers, type ModelTier } from "./contract/records.ts"
import { DEMO_BASE_URL } from "./demo/demo-fetch.ts"
import { LlmLedger } from "./ledger.ts"
import { isLocalBaseUrl } from "./local-address.ts"
import { detectLocal, listModels, type Server } from "./provider-check.ts"
import { ProviderBindings } from "./provider-bindings.ts"
import { ProvidersRepository, type StoredCheck } from "./providers-repository.ts"
import { ModelSettings } from "./settings.ts"
import { fnNamed } from "../../kernel/spans.ts"

const CHECK_TIMEOUT_MS = 5_000
const DETECT_TIMEOUT_MS = 1_000

/** A provider as listed, before its last check is joined in. */
type Listed = Omit<LlmProvider, "models" | "checkedAt" | "error"> & { readonly server: Server }

export class ModelProviders extends Effect.Service<ModelProviders>()("models/ModelProviders", {
  dependencies: [ProvidersRepository.Default],
  scoped: Effect.gen(function* () {
    const settings = yield* ModelSettings
    const repository = yield* ProvidersRepository
    const sealer = yield* SecretSealer
    const owned = yield* ProviderBindings
    const ledger = yield* LlmLedger

    const demo: Listed = {
      id: DEMO_PROVIDER_ID,
      name: "Demo models (built in)",
      baseUrl: DEMO_BASE_URL,
      hasKey: false,
      local: true,
      source: "builtin",
      server: { baseUrl: DEMO_BASE_URL, apiKey: Option.none(), builtin: true }
    }

    /** The environment's servers: the default one when a setting names it, and each tier's own. */
    const environmentListed = (): ReadonlyArray<Listed> => {
      const named = Option.isSome(settings.llmBaseUrl) || Option.isSome(settings.llmApiKey)
      const ids = [
        ...(named ? [ENVIRONMENT_PROVIDER_ID] : []),
        ...modelTiers.filter((tier) => Option.isSome(settings.llmTiers[tier].baseUrl)).map(environmentProviderId)
      ]
      return ids.flatMap((id) => {
        const server = environmentServer(settings, id)
        if (server === null) return []
        const setting = id === ENVIRONMENT_PROVIDER_ID ? "LLM_BASE_URL" : `LLM_${server.tier.toUpperCase()}_BASE_URL`
        return [
          {
            id,
            name: `Environment (${setting})`,
            baseUrl: server.baseUrl,
            hasKey: Option.isSome(server.apiKey),
            local: server.local,
            source: "environment" as const,
            server: { baseUrl: server.baseUrl, apiKey: server.apiKey, builtin: false }
          }
        ]
      })
    }

    const listed = (): ReadonlyArray<Listed> => [
      ...[...owned.current().providers.values()].map(
        (provider): Listed => ({
          id: provider.id,
          name: provider.name,
          baseUrl: provider.baseUrl,
          hasKey: provider.hasKey,
          local: isLocalBaseUrl(provider.baseUrl),
          source: "settings",
          server: { baseUrl: provider.baseUrl, apiKey: provider.apiKey, builtin: false }
        })
      ),
      ...environmentListed(),
      demo
    ]

    const withCheck = (provider: Listed, check: StoredCheck | undefined): LlmProvider => {
      const { server: _server, ...shown } = provider
      return provider.source === "builtin"
        ? { ...shown, models: [DEMO_MODEL], checkedAt: null, error: null }
        : { ...shown, models: check?.models ?? null, checkedAt: check?.checkedAt ?? null, error: check?.error ?? null }
    }

    const checksById = Effect.map(repository.checks, (checks) => new Map(checks.map((c) => [c.providerId, c])))

    const list = Effect.gen(function* () {
      const checks = yield* checksById
      return listed().map((provider) => withCheck(provider, checks.get(provider.id)))
    })

    const find = (id: string) => {
      const provider = listed().find((candidate) => candidate.id === id)
      return provider === undefined
        ? Effect.fail(new ProviderNotFound({ message: `No model provider ${id} on this node.`, details: { id } }))
        : Effect.succeed(provider)
    }

    const shownOne = (id: string) =>
      Effect.flatMap(Effect.all([find(id), checksById]), ([provider, checks]) =>
        Effect.succeed(withCheck(provider, checks.get(id)))
      )

    /** A provider of this node's own Settings, which the owner may change: not the environment's or the demo. */
    const ownProvider = (id: string) =>
      Effect.flatMap(find(id), (provider) => {
        const stored = owned.current().providers.get(id)
        return stored !== undefined
          ? Effect.succeed(stored)
          : Effect.fail(
              new ProviderReadOnly({
                message:
                  provider.source === "builtin"
                    ? "The demo models are built in: they cannot be changed or removed."
                    : `${provider.name} comes from the node's environment: change it there, or add a provider here.`,
                details: { id }
              })
            )
      })

    const sealedOrNull = (apiKey: string | null | undefined) =>
      apiKey === undefined || apiKey === null ? Effect.succeed(null) : sealer.seal(apiKey)

    const add = fnNamed("models.addProvider")(function* (body: NewProvider) {
      const id = `prv_${randomUUID().replaceAll("-", "").slice(0, 16)}`
      const sealedKey = yield* sealedOrNull(body.apiKey)
      yield* repository.saveProvider({ id, name: body.name, baseUrl: body.baseUrl, sealedKey, at: yield* nowIso })
      yield* owned.changed
      yield* Effect.logInfo(`The model provider ${body.name} (${body.baseUrl}) was added in Settings`)
      return yield* shownOne(id)
    })

    const change = fnNamed("models.changeProvider")(function* (id: string, body: ProviderChange) {
      const current = yield* ownProvider(id)
      const stored = (yield* repository.providers).find((provider) => provider.id === id)
      // Absent: the key stays as it is; null: it is removed; a string: it replaces the old one.
      const sealedKey = body.apiKey === undefined ? (stored?.sealedKey ?? null) : yield* sealedOrNull(body.apiKey)
      const baseUrl = body.baseUrl ?? current.baseUrl
      yield* repository.saveProvider({ id, name: body.name ?? current.name, baseUrl, sealedKey, at: yield* nowIso })
      // A check of another address says nothing of this one.
      if (baseUrl !== current.baseUrl) yield* repository.forgetCheck(id)
      yield* owned.changed
      return yield* shownOne(id)
    })

    const remove = fnNamed("models.removeProvider")(function* (id: string) {
      const provider = yield* ownProvider(id)
      const bound = [...owned.current().tiers.values()].filter((tier) => tier.providerId === id).map((t) => t.tier)
      if (bound.length > 0)
        return yield* new ProviderInUse({
          message: `${provider.name} serves the ${bound.join(", ")} tier${bound.length === 1 ? "" : "s"}: bind ${bound.length === 1 ? "it" : "them"} elsewhere first.`,
          details: { id, tiers: bound }
        })
      yield* repository.removeProvider(id)
      yield* repository.forgetCheck(id)
      yield* owned.changed
      return { id }
    })

    const check = fnNamed("models.checkProvider")(function* (id: string) {
      const provider = yield* find(id)
      const result: ProviderCheck = yield* listModels(provider.server, CHECK_TIMEOUT_MS)
      yield* repository.saveCheck({
        providerId: id,
        models: result.ok ? JSON.stringify(result.models) : null,
        checkedAt: yield* nowIso,
        error: result.error
      })
      return result
    })

    const detect = Effect.map(detectLocal(settings.localLlmPorts, DETECT_TIMEOUT_MS), (found) => ({ found }))

    // Once at start, quietly: a local server found is named in the log, for the owner to add; nothing is bound.
    yield* Effect.forkScoped(
      Effect.flatMap(detect, ({ found }) =>
        Effect.forEach(found, (server) =>
          Effect.logInfo(
            `A local model server answers at ${server.baseUrl} (${server.models.length} models): add it in Settings → Models`
          )
        )
      )
    )

    const stateOf = (tier: ModelTier, checks: ReadonlyMap<string, StoredCheck>, spent: SpentByTier): TierState => {
      const current = owned.current()
      const binding = bindingOf(settings, current, tier)
      const chosen = binding.source === "settings"
      const callable = chosen || isUsable(binding)
      const listedModels = checks.get(binding.providerId)?.models ?? null
      const unlisted =
        chosen &&
        !binding.builtin &&
        listedModels !== null &&
        listedModels.length > 0 &&
        !listedModels.includes(binding.model)
      return {
        tier,
        providerId: callable ? binding.providerId : null,
        model: callable ? binding.model : null,
        source: chosen ? "settings" : callable ? "environment" : "none",
        local: binding.local,
        leavesHost: callable && !binding.local,
        spentTodayUsd: spent.today.get(tier) ?? 0,
        spentMonthUsd: spent.month.get(tier) ?? 0,
        ceilingUsd: settings.spendMaxDayUsd,
        warning: unlisted
          ? `The provider does not list the model ${binding.model} (its last check listed ${listedModels.length}); calls may fail.`
          : null
      }
    }

    const tiers = Effect.gen(function* () {
      const [checks, spent] = yield* Effect.all([checksById, ledger.spentByTier])
      return modelTiers.map((tier) => stateOf(tier, checks, spent))
    })

    const oneTier = (tier: ModelTier) =>
      Effect.map(Effect.all([checksById, ledger.spentByTier]), ([checks, spent]) => stateOf(tier, checks, spent))

    const bind = fnNamed("models.bindTier")(function* (tier: ModelTier, body: BindTier) {
      yield* find(body.providerId)
      yield* repository.bindTier({ tier, providerId: body.providerId, model: body.model, at: yield* nowIso })
      yield* owned.changed
      yield* Effect.logInfo(`The ${tier} tier was bound to ${body.model} of ${body.providerId} in Settings`)
      return yield* oneTier(tier)
    })

    const unbind = fnNamed("models.unbindTier")(function* (tier: ModelTier) {
      yield* repository.unbindTier(tier)
      yield* owned.changed
      return yield* oneTier(tier)
    })

    return { list, add, change, remove, check, detect, tiers, bind, unbind } as const
  })
}) {}

type SpentByTier = Effect.Effect.Success<(typeof LlmLedger.Service)["spentByTier"]>
