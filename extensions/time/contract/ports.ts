/**
 * What the time feature asks of features it does not own and that they bind (so the binding names
 * this contract, never time's inner files): the being's time zone for repeating events, and a
 * memory named as a nudge's evidence. Both are references: unbound (a test of time alone), UTC and
 * "not found".
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"

export interface EventTimeZoneShape {
  /** The IANA time zone a being's repeating events keep their local time in. */
  readonly of: (beingId: string) => Effect.Effect<string>
}

/**
 * The being's time zone (its twin profile's, bound by extensions/twin/profile-time-zone.ts); UTC where nothing binds
 * it.
 */
export class EventTimeZone extends Context.Reference<EventTimeZone>()("time/EventTimeZone", {
  defaultValue: (): EventTimeZoneShape => ({ of: () => Effect.succeed("UTC") })
}) {}

/** A piece of evidence as "why was I nudged" shows it. */
export interface FoundEvidence {
  readonly label: string
  readonly snippet?: string
}

/** A memory named as evidence, the caller's own only (bound in extensions/twin/memory-evidence.ts). */
export class MemoryEvidence extends Context.Reference<MemoryEvidence>()("time/MemoryEvidence", {
  defaultValue: () => ({
    find: (_beingId: string, _memoryId: string): Effect.Effect<Option.Option<FoundEvidence>> =>
      Effect.succeed(Option.none())
  })
}) {}
