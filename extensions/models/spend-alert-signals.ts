/**
 * Spend-ceiling refusals reach the owner as `alert` signals on their desktop, through the one
 * Signals path every raiser takes. The refusal stands whether or not the alert lands (no owner
 * registered yet, a busy desktop): then the node's log keeps it.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { SpendAlerts } from "./spend-alerts.ts"
import { Signals } from "../desktop/contract/signals.ts"

export const SpendAlertsLive = Layer.effect(
  SpendAlerts,
  Effect.map(Signals, (signals) => ({
    raise: (alert) =>
      signals
        .raiseForOwner(
          {
            kind: "alert",
            title: alert.title,
            body: alert.body,
            priority: "high",
            options: [],
            dueAt: null,
            action: null
          },
          "models",
          "system"
        )
        .pipe(
          Effect.asVoid,
          Effect.catchAll((error) =>
            Effect.logWarning(
              `A spend alert did not reach the desktop (${error.message}). ${alert.title}: ${alert.body}`
            )
          )
        )
  }))
)
