/**
 * A being's profile (facts, goals, routines, preferences, tone, timezone). A being that never
 * changed it reads the default (empty sections, tone '', timezone 'UTC'); a change writes the
 * whole row in one transaction, so two patches never interleave half of each.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { JsonValue } from "../../kernel/contract/json.ts"
import { orDieOnStorageFault } from "../../kernel/repository.ts"
import { nowIso } from "../../kernel/time.ts"
import type { PreferencesPatch, Profile, ProfilePatch } from "./contract/records.ts"
import { ProfilesRepository } from "./repositories/profiles-repository.ts"
import { spanNamed } from "../../kernel/spans.ts"

export const defaultProfile: Profile = {
  facts: [],
  goals: [],
  routines: [],
  preferences: {},
  tone: "",
  timezone: "UTC"
}

export class Profiles extends Effect.Service<Profiles>()("twin/Profiles", {
  dependencies: [ProfilesRepository.Default],
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const repository = yield* ProfilesRepository

    const get = (beingId: string) =>
      Effect.map(
        repository.find(beingId),
        Option.getOrElse(() => defaultProfile)
      ).pipe(spanNamed("twin.getProfile"))

    const change = (beingId: string, next: (profile: Profile) => Profile) =>
      sql
        .withTransaction(
          Effect.gen(function* () {
            const profile = next(yield* get(beingId))
            yield* repository.save({ beingId, profile, updatedAt: yield* nowIso })
            return profile
          })
        )
        .pipe(orDieOnStorageFault)

    /** Only the sections given change; `preferences` given replaces them whole. */
    const patch = (beingId: string, patch: ProfilePatch) =>
      change(beingId, (profile) => ({ ...profile, ...patch })).pipe(spanNamed("twin.patchProfile"))

    /** Each key set to its value, or removed when null. */
    const patchPreferences = (beingId: string, patch: PreferencesPatch) =>
      change(beingId, (profile) => {
        const preferences: Record<string, JsonValue> = { ...profile.preferences }
        for (const [key, value] of Object.entries(patch)) {
          if (value === null) delete preferences[key]
          else preferences[key] = value
        }
        return { ...profile, preferences }
      }).pipe(spanNamed("twin.patchPreferences"))

    return { get, patch, patchPreferences } as const
  })
}) {}
