/**
 * The signal action registry (contract/signal-actions.ts): the kinds features claim, and the
 * dispatch the being actor runs inside an answer's transaction.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { ActionFailed } from "./contract/errors.ts"
import type { ActionResult, Signal } from "./contract/signal.ts"
import { type ActionHandler, SignalActions } from "./contract/signal-actions.ts"

const kindOf = (signal: Signal): string | null => {
  const kind = signal.action?.kind
  return typeof kind === "string" ? kind : null
}

export const SignalActionsLive = Layer.sync(SignalActions, () => {
  const handlers = new Map<string, ActionHandler>()
  return {
    register: (kind, handler) =>
      Effect.suspend(() => {
        if (handlers.has(kind)) return Effect.dieMessage(`the signal action kind "${kind}" is registered twice`)
        handlers.set(kind, handler)
        return Effect.void
      }),
    dispatch: (request) =>
      Effect.suspend(() => {
        const kind = kindOf(request.signal)
        const handler = kind === null ? undefined : handlers.get(kind)
        if (kind === null || handler === undefined) return Effect.succeed(null)
        return handler(request).pipe(
          // What is stored must read back the same: undefined becomes null, a non-JSON value a defect.
          Effect.map((output): ActionResult => ({ kind, output: JSON.parse(JSON.stringify(output ?? null)) })),
          Effect.mapError((refused) => new ActionFailed({ kind, reason: refused.reason }))
        )
      })
  }
})
