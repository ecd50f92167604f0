/** The `twin_profiles` table: one row per being once its profile was first changed; none reads as the default. */
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { JsonValue } from "../../../kernel/contract/json.ts"
import { JsonColumn, operation } from "../../../kernel/repository.ts"
import { Profile } from "../contract/records.ts"

const StoredProfile = Schema.Struct({
  ...Profile.fields,
  facts: JsonColumn(Profile.fields.facts),
  goals: JsonColumn(Profile.fields.goals),
  routines: JsonColumn(Profile.fields.routines),
  preferences: JsonColumn(Schema.Record({ key: Schema.String, value: JsonValue }))
})

export class ProfilesRepository extends Effect.Service<ProfilesRepository>()("twin/ProfilesRepository", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const find = operation(
      "twin.findProfile",
      SqlSchema.findOne({
        Request: Schema.String,
        Result: StoredProfile,
        execute: (beingId) =>
          sql`SELECT facts, goals, routines, preferences, tone, timezone FROM twin_profiles WHERE being_id = ${beingId}`
      })
    )

    const save = operation(
      "twin.saveProfile",
      SqlSchema.void({
        Request: Schema.Struct({ beingId: Schema.String, profile: StoredProfile, updatedAt: Schema.String }),
        execute: ({ beingId, profile, updatedAt }) => sql`INSERT INTO twin_profiles ${sql.insert({
          being_id: beingId,
          facts: profile.facts,
          goals: profile.goals,
          routines: profile.routines,
          preferences: profile.preferences,
          tone: profile.tone,
          timezone: profile.timezone,
          updated_at: updatedAt
        })} ON CONFLICT (being_id) DO UPDATE SET facts = excluded.facts, goals = excluded.goals, routines = excluded.routines,
        preferences = excluded.preferences, tone = excluded.tone, timezone = excluded.timezone, updated_at = excluded.updated_at`
      })
    )

    return { find, save } as const
  })
}) {}
