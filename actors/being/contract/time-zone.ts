/**
 * What the being actor needs from features it does not own: the being's time zone, from its twin
 * profile (bound by extensions/twin/profile-time-zone.ts); without a binding, UTC.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"

export interface ProfileTimeZoneShape {
  /** The being's IANA time zone, as its profile says; UTC when it says none. */
  readonly of: (beingId: string) => Effect.Effect<string>
}

export class ProfileTimeZone extends Context.Reference<ProfileTimeZone>()("being/ProfileTimeZone", {
  defaultValue: (): ProfileTimeZoneShape => ({ of: () => Effect.succeed("UTC") })
}) {}
