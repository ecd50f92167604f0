/** Handlers of the hush routes: the caller comes from the session, never from a body. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { Hush, type PutHush } from "../../actors/being/contract/hush.ts"
import { SignalReads } from "../../actors/being/contract/signal-reads.ts"
import { Scheduler } from "./scheduler.ts"
import { RELEASE_JOB, Signals } from "../desktop/contract/signals.ts"
import { CurrentSession } from "../accounts/contract/session.ts"
import { apiOf } from "../../kernel/contract/node-api.ts"
import { TwinHushApi } from "./contract/hush-api.ts"
import { NudgeWhys } from "./evidence.ts"
import { spanNamed } from "../../kernel/spans.ts"

export const TwinHushHandlers = HttpApiBuilder.group(apiOf(TwinHushApi), "twinHush", (handlers) =>
  Effect.gen(function* () {
    const hush = yield* Hush
    const whys = yield* NudgeWhys
    const signals = yield* Signals
    const stored = yield* SignalReads
    const scheduler = yield* Scheduler

    /** Clearing a snooze (`muteHours: 0`) lets through at once what the snooze held. */
    const put = (beingId: string, change: PutHush) =>
      Effect.gen(function* () {
        const settings = yield* hush.put(beingId, change)
        if (change.muteHours !== 0) return settings
        const held = yield* stored.heldProactive(beingId)
        for (const signal of held.filter((signal) => signal.gate?.key === "muted")) {
          // A busy desktop keeps the nudge for its scheduled release instead.
          yield* signals.release(beingId, signal.id).pipe(
            Effect.zipRight(scheduler.cancel(`${RELEASE_JOB}:${signal.id}`)),
            Effect.catchTag("ActorBusy", () => Effect.void)
          )
        }
        return settings
      }).pipe(spanNamed("hush.putAndRelease"))
    const caller = Effect.map(CurrentSession, (session) => session.beingId)
    return handlers
      .handle("getHush", () => Effect.flatMap(caller, hush.settings))
      .handle("putHush", ({ payload }) => Effect.flatMap(caller, (beingId) => put(beingId, payload)))
      .handle("heldNudges", () => Effect.flatMap(caller, hush.held))
      .handle("nudgeWhy", ({ path }) => Effect.flatMap(caller, (beingId) => whys.why(beingId, path.id)))
  })
).pipe(
  Layer.provide(
    Layer.mergeAll(
      // Memories named as evidence are read from the twin's store.
      NudgeWhys.Default
    )
  )
)
