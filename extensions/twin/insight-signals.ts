/**
 * The twin's InsightSignals port over the desktop's Signals: a reflection insight is raised on the
 * being's own desktop with source `twin:reflection`, through the being actor and so the gate,
 * where it counts as a proactive signal (the twin raised it unasked). The memories the pass read
 * are its evidence, which "why was I nudged" reads back (memory-evidence.ts).
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { InsightSignals } from "./ports.ts"
import { Signals } from "../desktop/contract/signals.ts"

export const reflectionSource = "twin:reflection"

export const InsightSignalsLive = Layer.effect(
  InsightSignals,
  Effect.map(Signals, (signals) => ({
    raise: (
      beingId: string,
      { title, body }: { readonly title: string; readonly body: string },
      memoryIds: ReadonlyArray<string>
    ) =>
      signals
        .raise(
          beingId,
          { kind: "insight", title, body, options: [], priority: "normal", dueAt: null, action: null },
          reflectionSource,
          "proactive",
          {
            evidence: memoryIds.map((id) => ({ kind: "memory", id }))
          }
        )
        .pipe(
          Effect.map(({ signal, delivered }) => ({ signalId: signal.id, delivered })),
          Effect.catchAll((refusal) => Effect.succeed({ refused: refusal.message }))
        )
  }))
)
