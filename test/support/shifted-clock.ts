/**
 * A Clock that runs at the real pace from a shifted start: a node restarted on it finds itself
 * hours later, so what fell due meanwhile is due at boot, without the test waiting for it.
 */
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"

export const shiftedClock = (offset: Duration.DurationInput): Clock.Clock => {
  const offsetMs = Duration.toMillis(offset)
  const millis = () => Date.now() + offsetMs
  return {
    [Clock.ClockTypeId]: Clock.ClockTypeId,
    unsafeCurrentTimeMillis: millis,
    unsafeCurrentTimeNanos: () => BigInt(millis()) * 1_000_000n,
    currentTimeMillis: Effect.sync(millis),
    currentTimeNanos: Effect.sync(() => BigInt(millis()) * 1_000_000n),
    sleep: (duration) =>
      Effect.async<void>((resume) => {
        const timer = setTimeout(() => resume(Effect.void), Duration.toMillis(duration))
        return Effect.sync(() => clearTimeout(timer))
      })
  }
}

/** A Clock at the real pace whose offset a test moves on while the node runs (`clock.ahead += ms`). */
export const movableClock = (): Clock.Clock & { ahead: number } => {
  const moving = { ahead: 0 } as Clock.Clock & { ahead: number }
  const millis = () => Date.now() + moving.ahead
  return Object.assign(moving, {
    [Clock.ClockTypeId]: Clock.ClockTypeId,
    unsafeCurrentTimeMillis: millis,
    unsafeCurrentTimeNanos: () => BigInt(millis()) * 1_000_000n,
    currentTimeMillis: Effect.sync(millis),
    currentTimeNanos: Effect.sync(() => BigInt(millis()) * 1_000_000n),
    sleep: shiftedClock(0).sleep
  })
}
