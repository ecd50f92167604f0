/**
 * The `mail_tokens` table: the single-use tokens of mailed links, stored as digests with the
 * address they were sent to. Spending one is a compare-and-set, so a token works once.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { operation } from "../../../kernel/repository.ts"

export const MailTokenPurpose = Schema.Literal("verify", "reset")
export type MailTokenPurpose = typeof MailTokenPurpose.Type

const NewMailToken = Schema.Struct({
  tokenHash: Schema.String,
  beingId: Schema.String,
  purpose: MailTokenPurpose,
  email: Schema.String,
  createdAt: Schema.String,
  expiresAt: Schema.String
})

const Issued = Schema.Struct({
  beingId: Schema.String,
  purpose: MailTokenPurpose,
  since: Schema.String,
  limit: Schema.Int
})

export class MailTokensRepository extends Effect.Service<MailTokensRepository>()("auth/MailTokensRepository", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const insert = operation(
      "auth.insertMailToken",
      SqlSchema.void({
        Request: NewMailToken,
        execute: (token) => sql`INSERT INTO mail_tokens (token_hash, being_id, purpose, email, created_at, expires_at)
        VALUES (${token.tokenHash}, ${token.beingId}, ${token.purpose}, ${token.email}, ${token.createdAt}, ${token.expiresAt})`
      })
    )

    /** Marks a live, unused token of the purpose used; answers whom and which address it was for. */
    const spend = operation(
      "auth.spendMailToken",
      SqlSchema.findOne({
        Request: Schema.Struct({ tokenHash: Schema.String, purpose: MailTokenPurpose, now: Schema.String }),
        Result: Schema.Struct({ beingId: Schema.String, email: Schema.String }),
        execute: ({ tokenHash, purpose, now }) => sql`UPDATE mail_tokens SET used_at = ${now}
        WHERE token_hash = ${tokenHash} AND purpose = ${purpose} AND used_at IS NULL AND expires_at > ${now}
        RETURNING being_id AS "beingId", email`
      })
    )

    const pendingVerification = SqlSchema.findOne({
      Request: Schema.Struct({ beingId: Schema.String, now: Schema.String }),
      Result: Schema.Struct({ beingId: Schema.String }),
      execute: ({ beingId, now }) => sql`SELECT being_id AS "beingId" FROM mail_tokens
        WHERE being_id = ${beingId} AND purpose = 'verify' AND used_at IS NULL AND expires_at > ${now} LIMIT 1`
    })

    /** Whether a verification link of the being's still waits to be opened. */
    const verificationPending = operation(
      "auth.verificationPending",
      (request: { readonly beingId: string; readonly now: string }) =>
        Effect.map(pendingVerification(request), Option.isSome)
    )

    const issuedSince = SqlSchema.findAll({
      Request: Issued,
      Result: Schema.Struct({ createdAt: Schema.String }),
      execute: ({ beingId, purpose, since, limit }) => sql`SELECT created_at AS "createdAt" FROM mail_tokens
        WHERE being_id = ${beingId} AND purpose = ${purpose} AND created_at > ${since} LIMIT ${limit}`
    })

    /** How many tokens of the purpose the being was sent since then, counted up to `limit`. */
    const countIssuedSince = operation("auth.countMailTokens", (request: typeof Issued.Type) =>
      Effect.map(issuedSince(request), (rows) => rows.length)
    )

    return { insert, spend, verificationPending, countIssuedSince } as const
  })
}) {}
