/** The model routes: bindings are read from the settings; usage from the ledger, scoped by the session. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import { inferenceOf } from "../../extensions/models/bindings.ts"
import { modelTiers } from "../../extensions/models/contract/records.ts"
import { ModelSettings } from "../../extensions/models/settings.ts"
import { LlmLedger } from "../../extensions/models/ledger.ts"
import { NodeApi } from "../contract/api.ts"
import { requireOwner } from "../auth/owner.ts"
import { CurrentSession } from "../auth/contract/session.ts"

export const LlmHandlers = HttpApiBuilder.group(NodeApi, "llm", (handlers) =>
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
