/**
 * The `oauth_pending_consents` table: the state, PKCE verifier, being and provider of each OAuth
 * consent under way, in the database so that the provider's redirect may come back to any process
 * of the node. Taking one deletes it in the statement that reads it: two answers carrying the same
 * state, on one process or two, get it once between them.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { operation } from "../../../kernel/repository.ts"

const Consent = Schema.Struct({
  beingId: Schema.String,
  provider: Schema.String,
  verifier: Schema.String,
  expiresAt: Schema.String
})

export class PendingConsentsRepository extends Effect.Service<PendingConsentsRepository>()(
  "integrations/PendingConsentsRepository",
  {
    effect: Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient

      /** Keeps a new consent, numbered after the being's others. */
      const insert = operation(
        "integrations.insertPendingConsent",
        SqlSchema.void({
          Request: Schema.Struct({ state: Schema.String, ...Consent.fields }),
          execute: (
            consent
          ) => sql`INSERT INTO oauth_pending_consents (state, being_id, provider, verifier, seq, expires_at)
        SELECT ${consent.state}, ${consent.beingId}, ${consent.provider}, ${consent.verifier}, COALESCE(MAX(seq), 0) + 1, ${consent.expiresAt}
        FROM oauth_pending_consents WHERE being_id = ${consent.beingId}`
        })
      )

      /** Drops every consent that expired by `now`, and the being's oldest beyond its newest `keep`. */
      const trim = operation(
        "integrations.trimPendingConsents",
        SqlSchema.void({
          Request: Schema.Struct({ beingId: Schema.String, keep: Schema.Int, now: Schema.String }),
          execute: ({ beingId, keep, now }) => sql`DELETE FROM oauth_pending_consents
        WHERE expires_at <= ${now}
          OR (being_id = ${beingId} AND state NOT IN (
            SELECT state FROM oauth_pending_consents WHERE being_id = ${beingId} ORDER BY seq DESC LIMIT ${keep}))`
        })
      )

      /** The consent of `state`, deleted as it is read: a state is good for one answer. */
      const take = operation(
        "integrations.takePendingConsent",
        SqlSchema.findOne({
          Request: Schema.Struct({ state: Schema.String }),
          Result: Consent,
          execute: ({ state }) => sql`DELETE FROM oauth_pending_consents WHERE state = ${state}
        RETURNING being_id AS "beingId", provider, verifier, expires_at AS "expiresAt"`
        })
      )

      return { insert, trim, take } as const
    })
  }
) {}
