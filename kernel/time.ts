/** Time comes from Effect's Clock so every timer and timestamp can be driven by TestClock. */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"

export const nowMillis = Clock.currentTimeMillis

export const nowIso = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms).toISOString())

export const isoIn = (ms: number) => Effect.map(Clock.currentTimeMillis, (now) => new Date(now + ms).toISOString())
