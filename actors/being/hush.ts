/**
 * A being's hush settings and "what did I miss": today's proactive nudges the gate held or
 * refused, in the being's local day (its profile's time zone), read from the stamps the gate
 * wrote (no model call).
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { nowMillis } from "../../kernel/time.ts"
import { Hush, type HeldNudges, type HushSettings, type HushShape, type Nudge, type PutHush } from "./contract/hush.ts"
import { HushRepository } from "./hush-repository.ts"
import { localDayStart } from "./local-time.ts"
import { ProfileTimeZone } from "./contract/time-zone.ts"
import { SignalsRepository } from "./signals-repository.ts"
import { fnNamed, spanNamed } from "../../kernel/spans.ts"

const HOUR = 3_600_000

export const whyPath = (signalId: string) => `/api/twin/nudges/${signalId}/why`

/** The being's `Hush` (contract/hush.ts); it reads the profile's time zone, so it is built above that binding. */
export const HushLive = Layer.effect(
  Hush,
  Effect.gen(function* () {
    const hush = yield* HushRepository
    const signals = yield* SignalsRepository
    const zones = yield* ProfileTimeZone

    const settings = (beingId: string) => hush.settingsOf(beingId).pipe(spanNamed("hush.settings"))

    /** Changes what is given; `muteHours` snoozes from now (0 clears the snooze). */
    const put = fnNamed("hush.put")(function* (beingId: string, change: PutHush) {
      const current = yield* hush.settingsOf(beingId)
      const now = yield* nowMillis
      const next: HushSettings = {
        ...current,
        ...(change.level === undefined ? {} : { level: change.level }),
        ...(change.quietStart === undefined ? {} : { quietStart: change.quietStart }),
        ...(change.quietEnd === undefined ? {} : { quietEnd: change.quietEnd }),
        ...(change.dailyCap === undefined ? {} : { dailyCap: change.dailyCap }),
        ...(change.muteHours === undefined
          ? {}
          : {
              mutedUntil:
                change.muteHours === 0 ? null : new Date(now + Math.round(change.muteHours * HOUR)).toISOString()
            }),
        updatedAt: new Date(now).toISOString()
      }
      yield* hush.save(next)
      return next
    })

    const held = fnNamed("hush.held")(function* (beingId: string) {
      const now = yield* nowMillis
      const zone = yield* zones.of(beingId)
      const since = new Date(localDayStart(now, zone)).toISOString()
      const [current, heldToday, refusedToday] = yield* Effect.all([
        hush.settingsOf(beingId),
        signals.proactiveSince({ beingId, decision: "held", since }),
        signals.proactiveSince({ beingId, decision: "refused", since })
      ])
      const nudge = (signal: (typeof heldToday)[number]): Nudge => ({
        id: signal.id,
        title: signal.title,
        body: signal.body,
        kind: signal.kind,
        source: signal.source,
        priority: signal.priority,
        createdAt: signal.createdAt,
        reason: signal.gate?.reason ?? "",
        heldUntil: signal.gate?.heldUntil ?? null,
        countedAgainst: signal.gate?.countedAgainst ?? null,
        why: whyPath(signal.id)
      })
      return { settings: current, held: heldToday.map(nudge), refused: refusedToday.map(nudge) } satisfies HeldNudges
    })

    return { settings, put, held } satisfies HushShape
  })
).pipe(Layer.provide(Layer.mergeAll(HushRepository.Default, SignalsRepository.Default)))
