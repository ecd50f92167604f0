/** Handlers of the push routes: the caller from the session, the rules in PushSubscriptions. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as Effect from "effect/Effect"
import { apiOf } from "../../kernel/contract/node-api.ts"
import { CurrentSession } from "../accounts/contract/session.ts"
import { Signals } from "../desktop/contract/signals.ts"
import { PushApi } from "./contract/api.ts"
import { PushKeys } from "./keys.ts"
import { PushSubscriptions } from "./subscriptions.ts"

/** The source of the signal "Send a test" raises. */
export const TEST_SOURCE = "push:test"

export const PushHandlers = HttpApiBuilder.group(apiOf(PushApi), "push", (handlers) =>
  Effect.gen(function* () {
    const keys = yield* PushKeys
    const subscriptions = yield* PushSubscriptions
    const signals = yield* Signals
    const caller = Effect.map(CurrentSession, (session) => session.beingId)

    return handlers
      .handle("getKey", () => Effect.map(keys.pair, (pair) => ({ publicKey: pair.publicKey })))
      .handle("subscribe", ({ payload }) =>
        Effect.gen(function* () {
          const request = yield* HttpServerRequest.HttpServerRequest
          return yield* subscriptions.subscribe(yield* caller, payload, request.headers["user-agent"])
        })
      )
      .handle("listSubscriptions", () => Effect.flatMap(caller, subscriptions.list))
      .handle("deleteSubscription", ({ path }) =>
        Effect.flatMap(caller, (beingId) => subscriptions.remove(beingId, path.id))
      )
      .handle("sendTest", () =>
        Effect.gen(function* () {
          const beingId = yield* caller
          const raised = yield* signals
            .raise(
              beingId,
              {
                kind: "alert",
                title: "A test notification from your node",
                body: "If this reached your device, notifications work.",
                options: [],
                priority: "normal",
                dueAt: null,
                action: null
              },
              TEST_SOURCE,
              "system"
            )
            .pipe(Effect.orDie)
          const devices = yield* subscriptions.count(beingId)
          return { signalId: raised.signal.id, subscriptions: devices.n }
        })
      )
  })
)
