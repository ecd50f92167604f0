/** A failed run's alert goes through the host's one signal path, onto the project owner's desktop. */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import { ProjectAlerts } from "./alerts.ts"
import { SignalInput } from "../being/contract/signal.ts"
import { Signals } from "../../extensions/desktop/contract/signals.ts"

export const ProjectAlertsLive = Layer.effect(
  ProjectAlerts,
  Effect.map(Signals, (signals) => ({
    raise: (alert) =>
      signals
        .raise(
          alert.ownerId,
          Schema.decodeSync(SignalInput)({ kind: "alert", title: alert.title, body: alert.body, priority: "high" }),
          `studio:${alert.projectId}`,
          "system"
        )
        .pipe(
          Effect.asVoid,
          Effect.catchAll((error) =>
            Effect.logWarning(`the alert of project ${alert.projectId} could not be raised: ${error.message}`)
          )
        )
  }))
)
