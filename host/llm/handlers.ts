/** The model routes: bindings are read from the settings; usage from the ledger, scoped by the session. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import { modelTiers, Settings } from "../../kernel/settings.ts"
import { inferenceOf } from "../../models/bindings.ts"
import { LlmLedger } from "../../models/ledger.ts"
import { NodeApi } from "../api.ts"
import { requireOwner } from "../auth/owner.ts"
import { CurrentSession } from "../auth/session.ts"

export const LlmHandlers = HttpApiBuilder.group(NodeApi, "llm", (handlers) =>
  Effect.gen(function* () {
    const settings = yield* Settings
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
