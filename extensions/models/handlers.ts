/** The model routes: bindings are read from the settings; usage from the ledger, scoped by the session. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import { inferenceOf } from "./bindings.ts"
import { modelTiers } from "./contract/records.ts"
import { ModelSettings } from "./settings.ts"
import { LlmLedger } from "./ledger.ts"
import { apiOf } from "../../kernel/contract/node-api.ts"
import { LlmApi } from "./contract/api.ts"
import { requireOwner } from "../accounts/contract/owner.ts"
import { CurrentSession } from "../accounts/contract/session.ts"

export const LlmHandlers = HttpApiBuilder.group(apiOf(LlmApi), "llm", (handlers) =>
  Effect.gen(function* () {
    const settings = yield* ModelSettings
    const ledger = yield* LlmLedger
    return handlers
      .handle("inference", () =>
        Effect.as(requireOwner, {
          fallbackEnabled: settings.localLlmFallback,
          tiers: modelTiers.map((tier) => inferenceOf(settings, tier)),
          ceilings: {
            callUsd: settings.spendMaxCallUsd,
            projectUsd: settings.spendMaxProjectUsd,
            dayUsd: settings.spendMaxDayUsd
          }
        })
      )
      .handle("usage", () =>
        Effect.flatMap(CurrentSession, (session) =>
          ledger.usage(session.isOwner ? { kind: "node" } : { kind: "being", beingId: session.beingId })
        )
      )
  })
)
