/** The listeners of delivered signals (contract/signal-deliveries.ts); a listener's defect stays its own. */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { type DeliveryListener, SignalDeliveries } from "./contract/signal-deliveries.ts"

export const SignalDeliveriesLive = Layer.sync(SignalDeliveries, () => {
  const listeners: Array<DeliveryListener> = []
  return {
    listen: (listener) => Effect.sync(() => void listeners.push(listener)),
    delivered: (signal) =>
      Effect.forEach(listeners, (listener) => Effect.catchAllCause(listener(signal), Effect.logWarning), {
        discard: true
      })
  }
})
