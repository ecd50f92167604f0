/**
 * The model routes: owner-only but for usage, which the session scopes. The tiers resolve from
 * the owner's bindings over the environment's (bindings.ts); providers and bindings are the
 * ModelProviders service's.
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { inferenceOf } from "./bindings.ts"
import { modelTiers } from "./contract/records.ts"
import { ModelSettings } from "./settings.ts"
import { LlmLedger } from "./ledger.ts"
import { apiOf } from "../../kernel/contract/node-api.ts"
import { LlmApi } from "./contract/api.ts"
import { requireOwner } from "../accounts/contract/owner.ts"
import { CurrentSession } from "../accounts/contract/session.ts"
import { ProviderBindings } from "./provider-bindings.ts"
import { ModelProviders } from "./providers.ts"

export const LlmHandlers = HttpApiBuilder.group(apiOf(LlmApi), "llm", (handlers) =>
  Effect.gen(function* () {
    const settings = yield* ModelSettings
    const ledger = yield* LlmLedger
    const owned = yield* ProviderBindings
    const providers = yield* ModelProviders
    const owner = <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.zipRight(requireOwner, effect)
    return handlers
      .handle("inference", () =>
        owner(
          Effect.sync(() => {
            const current = owned.current()
            return {
              fallbackEnabled: settings.localLlmFallback,
              tiers: modelTiers.map((tier) => inferenceOf(settings, current, tier)),
              ceilings: {
                callUsd: settings.spendMaxCallUsd,
                projectUsd: settings.spendMaxProjectUsd,
                dayUsd: settings.spendMaxDayUsd
              }
            }
          })
        )
      )
      .handle("usage", () =>
        Effect.flatMap(CurrentSession, (session) =>
          ledger.usage(session.isOwner ? { kind: "node" } : { kind: "being", beingId: session.beingId })
        )
      )
      .handle("providers", () => owner(providers.list))
      .handle("addProvider", ({ payload }) => owner(providers.add(payload)))
      .handle("changeProvider", ({ path, payload }) => owner(providers.change(path.id, payload)))
      .handle("removeProvider", ({ path }) => owner(providers.remove(path.id)))
      .handle("checkProvider", ({ path }) => owner(providers.check(path.id)))
      .handle("detectProviders", () => owner(providers.detect))
      .handle("tiers", () => owner(providers.tiers))
      .handle("bindTier", ({ path, payload }) => owner(providers.bind(path.tier, payload)))
      .handle("unbindTier", ({ path }) => owner(providers.unbind(path.tier)))
  })
).pipe(Layer.provide(ModelProviders.Default))
