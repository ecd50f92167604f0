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
