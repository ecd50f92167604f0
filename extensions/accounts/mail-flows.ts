/**
 * Mail-borne flows: confirming an address and resetting a password. Tokens are opaque,
 * single-use, stored as digests: a verification link lives 24 hours, a reset link 1 hour.
 * A reset request answers the same, at the same speed, for any address: the lookup and the
 * mail happen off the response path, and at most three reset mails leave per address an hour.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { EmailNotConfigured, InvalidToken, MailFailed } from "./contract/errors.ts"
import { orDieOnStorageFault } from "../../kernel/repository.ts"
import { isoIn, nowIso } from "../../kernel/time.ts"
import { Mailer } from "../mail/contract/mailer.ts"
import { PublicOrigin } from "../../kernel/origin.ts"
import { issueMailToken, RESET_LIFETIME_MS, resetLinkOf, VERIFY_LIFETIME_MS } from "./mail-tokens.ts"
import { hashPassword } from "./passwords.ts"
import type { EmailStatus } from "./contract/records.ts"
import { BeingsRepository } from "./repositories/beings.ts"
import { MailTokensRepository, type MailTokenPurpose } from "./repositories/mail-tokens.ts"
import { Sessions } from "./sessions.ts"
import { digest } from "./tokens.ts"
import { fnNamed } from "../../kernel/spans.ts"

const HOUR_MS = 60 * 60 * 1000
export const RESETS_PER_ADDRESS_PER_HOUR = 3

const badToken = new InvalidToken({
  message: "This link is not valid any more. Ask for a new one."
})

export class MailFlows extends Effect.Service<MailFlows>()("auth/MailFlows", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const mailer = yield* Mailer
    const sessions = yield* Sessions
    const beings = yield* BeingsRepository
    const tokens = yield* MailTokensRepository
    const origin = (yield* PublicOrigin).url
    const withTokens = Effect.provideService(MailTokensRepository, tokens)

    const status = fnNamed("auth.emailStatus")(function* (beingId: string) {
      // The session's being exists (sessions cascade with it): a miss is the node's fault.
      const { email, verifiedAt } = yield* Effect.flatMap(beings.emailOf(beingId), Effect.orDie)
      const pending = verifiedAt === null && (yield* tokens.verificationPending({ beingId, now: yield* nowIso }))
      return {
        email,
        verified: verifiedAt !== null,
        verifiedAt,
        pending,
        emailConfigured: mailer.configured
      } satisfies EmailStatus
    })

    const sendVerification = fnNamed("auth.sendVerification")(function* (beingId: string) {
      if (!mailer.configured) {
        return yield* Effect.fail(
          new EmailNotConfigured({ message: "This node cannot send mail: set SMTP_URL first." })
        )
      }
      const current = yield* status(beingId)
      if (current.verified) return current
      const token = yield* withTokens(issueMailToken(beingId, "verify", current.email, VERIFY_LIFETIME_MS))
      yield* mailer
        .send({
          to: current.email,
          subject: "Confirm your email address",
          text: `Open this link to confirm your address:\n\n${origin}/verify?token=${token}\n\nIt works once, for 24 hours.`
        })
        .pipe(
          Effect.mapError(
            (error) => new MailFailed({ message: `The mail server refused the message: ${error.message}` })
          )
        )
      return yield* status(beingId)
    })

    /** Spends a token of the given purpose inside the caller's transaction; answers whom it was for. */
    const spend = (token: string, purpose: MailTokenPurpose) =>
      Effect.flatMap(nowIso, (now) => tokens.spend({ tokenHash: digest(token), purpose, now })).pipe(
        Effect.flatMap(Option.match({ onNone: () => Effect.fail(badToken), onSome: Effect.succeed }))
      )

    const verify = fnNamed("auth.verifyEmail")(function* (token: string) {
      yield* sql.withTransaction(
        Effect.gen(function* () {
          const spent = yield* spend(token, "verify")
          // The address must still be the one the link was sent to.
          yield* beings.confirmEmail({ id: spent.beingId, email: spent.email, now: yield* nowIso })
        })
      )
    }, orDieOnStorageFault)

    const mailReset = fnNamed("auth.mailReset")(function* (email: string) {
      const account = yield* beings.credentialsByEmail(email)
      if (Option.isNone(account) || !mailer.configured) return
      const being = account.value
      const since = yield* isoIn(-HOUR_MS)
      const recent = yield* tokens.countIssuedSince({
        beingId: being.id,
        purpose: "reset",
        since,
        limit: RESETS_PER_ADDRESS_PER_HOUR
      })
      if (recent >= RESETS_PER_ADDRESS_PER_HOUR) return
      const token = yield* withTokens(issueMailToken(being.id, "reset", being.email, RESET_LIFETIME_MS))
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
    const resetPassword = fnNamed("auth.resetPassword")(function* (token: string, password: string) {
      const passwordHash = yield* hashPassword(password)
      yield* sql.withTransaction(
        Effect.gen(function* () {
          const spent = yield* spend(token, "reset")
          yield* beings.resetPassword({ id: spent.beingId, passwordHash, now: yield* nowIso })
          yield* sessions.revokeAll(spent.beingId)
        })
      )
    }, orDieOnStorageFault)

    return { status, sendVerification, verify, requestReset, resetPassword } as const
  }),
  // Mail and the public origin are edges the builder provides: the node its live ones, a test its own.
  dependencies: [Sessions.Default, BeingsRepository.Default, MailTokensRepository.Default]
}) {}
