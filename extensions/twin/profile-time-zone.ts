/**
 * The ports that keep a being's local time in the time zone its twin profile names (UTC until it
 * names one): the being actor's quiet hours and the calendar's repeating events.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { ProfileTimeZone } from "../../actors/being/contract/time-zone.ts"
import { EventTimeZone } from "../time/contract/ports.ts"
import { Profiles } from "./profiles.ts"

const zoneOf = Effect.map(Profiles, (profiles) => ({
  of: (beingId: string) => profiles.get(beingId).pipe(Effect.map((profile) => profile.timezone))
}))

export const ProfileTimeZoneLive = Layer.effect(ProfileTimeZone, zoneOf).pipe(Layer.provide(Profiles.Default))

export const EventTimeZoneLive = Layer.effect(EventTimeZone, zoneOf).pipe(Layer.provide(Profiles.Default))
