/**
 * Mail-borne flows: confirming an address and resetting a password. Tokens are opaque,
 * single-use, stored as digests: a verification link lives 24 hours, a reset link 1 hour.
 * A reset request answers the same, at the same speed, for any address: the lookup and the
 * mail happen off the response path, and at most three reset mails leave per address an hour.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import { Conflict, InvalidRequest } from "../../kernel/contract/errors.ts"
import { isoIn, nowIso } from "../../kernel/time.ts"
import { Mailer } from "../mail/mailer.ts"
import { PublicOrigin } from "../origin.ts"
import { issueMailToken, RESET_LIFETIME_MS, resetLinkOf, VERIFY_LIFETIME_MS } from "./mail-tokens.ts"
import { hashPassword } from "./passwords.ts"
import type { EmailStatus } from "./contract/records.ts"
import { Sessions } from "./sessions.ts"
import { digest } from "./tokens.ts"

const HOUR_MS = 60 * 60 * 1000
export const RESETS_PER_ADDRESS_PER_HOUR = 3

const badToken = new InvalidRequest({
  error: "invalid_token",
  message: "This link is not valid any more. Ask for a new one."
})

export class MailFlows extends Effect.Service<MailFlows>()("host/MailFlows", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const mailer = yield* Mailer
    const sessions = yield* Sessions
    const origin = (yield* PublicOrigin).url

    const status = (beingId: string) =>
      Effect.gen(function* () {
        const now = yield* nowIso
        const rows = yield* sql<{ email: string; verifiedAt: string | null; pending: number }>`
          SELECT b.email AS email, b.email_verified_at AS verifiedAt,
            EXISTS (SELECT 1 FROM mail_tokens t WHERE t.being_id = b.id AND t.purpose = 'verify'
              AND t.used_at IS NULL AND t.expires_at > ${now}) AS pending
          FROM beings b WHERE b.id = ${beingId}`
        const row = rows[0]
        return {
          email: row.email,
          verified: row.verifiedAt !== null,
          verifiedAt: row.verifiedAt,
          pending: row.verifiedAt === null && row.pending === 1,
          emailConfigured: mailer.configured
        } satisfies EmailStatus
      })

    const sendVerification = (beingId: string) =>
      Effect.gen(function* () {
        if (!mailer.configured) {
          return yield* Effect.fail(
            new Conflict({ error: "email_not_configured", message: "This node cannot send mail: set SMTP_URL first." })
          )
        }
        const current = yield* status(beingId)
        if (current.verified) return current
        const token = yield* issueMailToken(beingId, "verify", current.email, VERIFY_LIFETIME_MS)
        yield* mailer
          .send({
            to: current.email,
            subject: "Confirm your email address",
            text: `Open this link to confirm your address:\n\n${origin}/verify?token=${token}\n\nIt works once, for 24 hours.`
          })
          .pipe(
            Effect.mapError(
              (error) => new Conflict({ error: "mail_failed", message: `The mail server refused the message: ${error.message}` })
            )
          )
        return yield* status(beingId)
      })

    /** Spends a token of the given purpose inside the caller's transaction; answers its row. */
    const spend = (token: string, purpose: "verify" | "reset") =>
      Effect.gen(function* () {
        const now = yield* nowIso
        const rows = yield* sql<{ beingId: string; email: string }>`
          UPDATE mail_tokens SET used_at = ${now}
          WHERE token_hash = ${digest(token)} AND purpose = ${purpose} AND used_at IS NULL AND expires_at > ${now}
          RETURNING being_id AS beingId, email`
        return rows[0] === undefined ? yield* Effect.fail(badToken) : rows[0]
      })

    const verify = (token: string) =>
      sql.withTransaction(
        Effect.gen(function* () {
          const row = yield* spend(token, "verify")
          const now = yield* nowIso
          // The address must still be the one the link was sent to.
          yield* sql`UPDATE beings SET email_verified_at = COALESCE(email_verified_at, ${now})
            WHERE id = ${row.beingId} AND email = ${row.email}`
        })
      )

    const mailReset = (email: string) =>
      Effect.gen(function* () {
        const beings = yield* sql<{ id: string; email: string }>`
          SELECT id, email FROM beings WHERE email = ${email} AND kind = 'human'`
        const being = beings[0]
        if (being === undefined || !mailer.configured) return
        const since = yield* isoIn(-HOUR_MS)
        const recent = yield* sql<{ n: number }>`SELECT count(*) AS n FROM mail_tokens
          WHERE being_id = ${being.id} AND purpose = 'reset' AND created_at > ${since}`
        if (recent[0].n >= RESETS_PER_ADDRESS_PER_HOUR) return
        const token = yield* issueMailToken(being.id, "reset", being.email, RESET_LIFETIME_MS)
        yield* mailer.send({
          to: being.email,
          subject: "Reset your password",
          text: `Someone asked to reset the password of this account. If it was you, open:\n\n${resetLinkOf(origin, token)}\n\nIt works once, for one hour. If it was not you, ignore this mail.`
        })
      })

    /** Answers at once; the lookup and the mail run on their own fiber. */
    const requestReset = (email: string) =>
      Effect.asVoid(
        Effect.forkDaemon(
          mailReset(email).pipe(
            Effect.catchAllCause((cause) => Effect.logWarning("A password reset mail did not leave", cause))
          )
        )
      )

    /** Spends the token in the transaction that writes the password; drops every session. */
    const resetPassword = (token: string, password: string) =>
      Effect.gen(function* () {
        const passwordHash = yield* hashPassword(password)
        yield* sql.withTransaction(
          Effect.gen(function* () {
            const row = yield* spend(token, "reset")
            const now = yield* nowIso
            // A suspended account stays suspended: the new hash waits where suspension keeps the real one.
            yield* sql`UPDATE beings SET
                password_hash = CASE WHEN suspended_hash IS NULL THEN ${passwordHash} ELSE password_hash END,
                suspended_hash = CASE WHEN suspended_hash IS NULL THEN NULL ELSE ${passwordHash} END,
                email_verified_at = COALESCE(email_verified_at, ${now})
              WHERE id = ${row.beingId}`
            yield* sessions.revokeAll(row.beingId)
          })
        )
      })

    return { status, sendVerification, verify, requestReset, resetPassword } as const
  })
}) {}
