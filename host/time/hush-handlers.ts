/** Handlers of the hush routes: the caller comes from the session, never from a body. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { Hush } from "../../actors/being/hush.ts"
import { CurrentSession } from "../auth/contract/session.ts"
import { NodeApi } from "../contract/api.ts"
import { NudgeWhys } from "./evidence.ts"

export const TwinHushHandlers = HttpApiBuilder.group(NodeApi, "twinHush", (handlers) =>
  Effect.gen(function* () {
    const hush = yield* Hush
    const whys = yield* NudgeWhys
    const caller = Effect.map(CurrentSession, (session) => session.beingId)
    return handlers
      .handle("getHush", () => Effect.flatMap(caller, hush.settings))
      .handle("putHush", ({ payload }) => Effect.flatMap(caller, (beingId) => hush.put(beingId, payload)))
      .handle("heldNudges", () => Effect.flatMap(caller, hush.held))
      .handle("nudgeWhy", ({ path }) => Effect.flatMap(caller, (beingId) => whys.why(beingId, path.id)))
  })
).pipe(Layer.provide(Layer.mergeAll(Hush.Default, NudgeWhys.Default)))
