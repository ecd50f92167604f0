/**
 * The being actor's ProfileTimeZone port over the twin's profiles: quiet hours are kept in the
 * time zone the being's profile names (UTC until it names one).
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { ProfileTimeZone } from "../../actors/being/ports.ts"
import { Profiles } from "../../extensions/twin/profiles.ts"

export const ProfileTimeZoneLive = Layer.effect(
  ProfileTimeZone,
  Effect.map(Profiles, (profiles) => ({
    of: (beingId: string) => profiles.get(beingId).pipe(Effect.map((profile) => profile.timezone))
  }))
).pipe(Layer.provide(Profiles.Default))
