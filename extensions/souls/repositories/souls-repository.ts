/** The `souls` table: one soul per being, its compiled prompt beside the fields it was compiled from. */
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { JsonColumn, operation } from "../../../kernel/repository.ts"
import { Mood, Personality, Soul } from "../contract/records.ts"

/** A soul as stored: the prompt always there, and when its mood was last set (it relaxes from then on). */
export const StoredSoul = Schema.Struct({
  ...Soul.fields,
  personality: JsonColumn(Personality),
  values: JsonColumn(Schema.Array(Schema.String)),
  mood: JsonColumn(Mood),
  moodAt: Schema.String,
  systemPrompt: Schema.String
})
export type StoredSoul = typeof StoredSoul.Type

const columns = `id, being_id AS "beingId", personality, "values", voice, empathy_style AS "empathyStyle", backstory, purpose,
  mood, mood_at AS "moodAt", system_prompt AS "systemPrompt", updated_at AS "updatedAt"`

export class SoulsRepository extends Effect.Service<SoulsRepository>()("souls/SoulsRepository", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const all = sql.literal(columns)

    const findByBeing = operation(
      "souls.findByBeing",
      SqlSchema.findOne({
        Request: Schema.String,
        Result: StoredSoul,
        execute: (beingId) => sql`SELECT ${all} FROM souls WHERE being_id = ${beingId}`
      })
    )

    /** Writes the being's soul whole; its id stays the first one it was given. */
    const save = operation(
      "souls.save",
      SqlSchema.void({
        Request: StoredSoul,
        execute: (soul) =>
          sql`INSERT INTO souls (id, being_id, personality, "values", voice, empathy_style, backstory, purpose, mood, mood_at, system_prompt, updated_at)
          VALUES (${soul.id}, ${soul.beingId}, ${soul.personality}, ${soul.values}, ${soul.voice}, ${soul.empathyStyle}, ${soul.backstory},
            ${soul.purpose}, ${soul.mood}, ${soul.moodAt}, ${soul.systemPrompt}, ${soul.updatedAt})
          ON CONFLICT (being_id) DO UPDATE SET personality = excluded.personality, "values" = excluded."values", voice = excluded.voice,
            empathy_style = excluded.empathy_style, backstory = excluded.backstory, purpose = excluded.purpose, mood = excluded.mood,
            mood_at = excluded.mood_at, system_prompt = excluded.system_prompt, updated_at = excluded.updated_at`
      })
    )

    return { findByBeing, save } as const
  })
}) {}
