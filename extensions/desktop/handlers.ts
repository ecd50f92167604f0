/** Handlers of the Desktop group: thin, each a call into the service that owns the rule. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { apiOf } from "../../kernel/contract/node-api.ts"
import { DesktopApi } from "./contract/api.ts"
import { BeingRegistry } from "../accounts/contract/being-registry.ts"
import { requireOwner } from "../accounts/contract/owner.ts"
import { CurrentSession } from "../accounts/contract/session.ts"
import { now } from "./now.ts"
import { Signals } from "./contract/signals.ts"
import { Widgets } from "./widgets.ts"

/** What the owner raises by hand (to try the desktop out) says so as its source. */
export const OWNER_SOURCE = "owner"

export const DesktopHandlers = HttpApiBuilder.group(apiOf(DesktopApi), "desktop", (handlers) =>
  Effect.gen(function* () {
    const signals = yield* Signals
    const widgets = yield* Widgets
    const accounts = yield* BeingRegistry
    const caller = Effect.map(CurrentSession, (session) => session.beingId)

    return handlers
      .handle("listSignals", ({ urlParams }) =>
        Effect.flatMap(caller, (beingId) => signals.list(beingId, urlParams.status, urlParams))
      )
      .handle("raiseSignal", ({ payload }) =>
        Effect.flatMap(requireOwner, (owner) => signals.raise(owner.beingId, payload, OWNER_SOURCE, "responsive"))
      )
      .handle("answerSignal", ({ path, payload }) =>
        Effect.flatMap(caller, (beingId) => signals.answer(beingId, path.id, payload.optionId))
      )
      .handle("dismissSignal", ({ path }) => Effect.flatMap(caller, (beingId) => signals.dismiss(beingId, path.id)))
      .handle("getWidgets", () => Effect.flatMap(caller, widgets.get))
      .handle("putWidgets", ({ payload }) => Effect.flatMap(caller, (beingId) => widgets.put(beingId, payload.widgets)))
      .handle("now", ({ urlParams }) =>
        Effect.flatMap(caller, (beingId) => now(accounts, signals, beingId, urlParams.tz)).pipe(
          // The session's being exists (sessions cascade with it); a miss is the node's fault.
          Effect.catchTag("NoSuchAccount", Effect.die)
        )
      )
  })
).pipe(Layer.provide(Widgets.Default))
