/** A Clock for a test node that a test moves on at will (a session or a consent running out), sleeping in real time. */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"

export const movableClock = () => {
  let offsetMs = 0
  const millis = () => Date.now() + offsetMs
  const clock: Clock.Clock = {
    [Clock.ClockTypeId]: Clock.ClockTypeId,
    unsafeCurrentTimeMillis: millis,
    unsafeCurrentTimeNanos: () => BigInt(millis()) * 1_000_000n,
    currentTimeMillis: Effect.sync(millis),
    currentTimeNanos: Effect.sync(() => BigInt(millis()) * 1_000_000n),
    sleep: (duration) => Clock.make().sleep(duration)
  }
  return {
    clock,
    /** Moves the node's time on by `ms`. */
    advance: (ms: number) => {
      offsetMs += ms
    },
    /** Back to the real time. */
    reset: () => {
      offsetMs = 0
    }
  }
}
