/**
 * The `twin_voice_consents` table: the destination fingerprint each being agreed to send its recordings to, and when.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { operation } from "../../../kernel/repository.ts"

export const VoiceConsent = Schema.Struct({
  beingId: Schema.String,
  consentKey: Schema.String,
  consentedAt: Schema.String
})
export type VoiceConsent = typeof VoiceConsent.Type

export class VoiceConsentsRepository extends Effect.Service<VoiceConsentsRepository>()("twin/VoiceConsentsRepository", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const find = operation(
      "twin.findVoiceConsent",
      SqlSchema.findOne({
        Request: Schema.String,
        Result: VoiceConsent,
        execute: (
          beingId
        ) => sql`SELECT being_id AS "beingId", consent_key AS "consentKey", consented_at AS "consentedAt"
        FROM twin_voice_consents WHERE being_id = ${beingId}`
      })
    )

    const save = operation(
      "twin.saveVoiceConsent",
      SqlSchema.void({
        Request: VoiceConsent,
        execute: (consent) =>
          sql`INSERT INTO twin_voice_consents ${sql.insert({
            being_id: consent.beingId,
            consent_key: consent.consentKey,
            consented_at: consent.consentedAt
          })} ON CONFLICT (being_id) DO UPDATE SET consent_key = excluded.consent_key, consented_at = excluded.consented_at`
      })
    )

    const remove = operation(
      "twin.removeVoiceConsent",
      SqlSchema.void({
        Request: Schema.String,
        execute: (beingId) => sql`DELETE FROM twin_voice_consents WHERE being_id = ${beingId}`
      })
    )

    return { find, save, remove } as const
  })
}) {}
