/** The `hush_settings` table: a being's hush settings; a being that never set them has the defaults. */
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { operation } from "../../kernel/repository.ts"
import { HushSettings } from "./contract/hush.ts"

/** No quiet hours until the being sets them (its zone may not be known yet); a dozen nudges a day. */
export const defaultHush = (beingId: string): HushSettings => ({
  beingId,
  level: "normal",
  quietStart: 0,
  quietEnd: 0,
  dailyCap: 12,
  mutedUntil: null,
  updatedAt: null
})

export class HushRepository extends Effect.Service<HushRepository>()("being/HushRepository", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const find = SqlSchema.findOne({
      Request: HushSettings.fields.beingId,
      Result: HushSettings,
      execute: (
        beingId
      ) => sql`SELECT being_id AS "beingId", level, quiet_start AS "quietStart", quiet_end AS "quietEnd",
        daily_cap AS "dailyCap", muted_until AS "mutedUntil", updated_at AS "updatedAt" FROM hush_settings WHERE being_id = ${beingId}`
    })

    const settingsOf = operation("hush.settingsOf", (beingId: string) =>
      Effect.map(
        find(beingId),
        Option.getOrElse(() => defaultHush(beingId))
      )
    )

    const save = operation(
      "hush.save",
      SqlSchema.void({
        Request: HushSettings,
        execute: (
          hush
        ) => sql`INSERT INTO hush_settings (being_id, level, quiet_start, quiet_end, daily_cap, muted_until, updated_at)
        VALUES (${hush.beingId}, ${hush.level}, ${hush.quietStart}, ${hush.quietEnd}, ${hush.dailyCap}, ${hush.mutedUntil}, ${hush.updatedAt})
        ON CONFLICT (being_id) DO UPDATE SET level = excluded.level, quiet_start = excluded.quiet_start,
          quiet_end = excluded.quiet_end, daily_cap = excluded.daily_cap, muted_until = excluded.muted_until,
          updated_at = excluded.updated_at`
      })
    )

    return { settingsOf, save } as const
  })
}) {}
