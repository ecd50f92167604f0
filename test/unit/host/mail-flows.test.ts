/** Mail-borne flows on the auth feature alone, with the Mailer that records instead of sending. */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { Accounts } from "../../../extensions/accounts/accounts.ts"
import { AccessCodes } from "../../../extensions/accounts/codes.ts"
import { MailFlows } from "../../../extensions/accounts/mail-flows.ts"
import { Sessions } from "../../../extensions/accounts/sessions.ts"
import { Outbox } from "../../../extensions/mail/mailer.ts"
import { authFeature, ORIGIN } from "./auth-feature.ts"

const registerOwner = Effect.gen(function* () {
  const code = yield* Effect.flatMap(AccessCodes, (codes) => codes.ensureBootstrap)
  return yield* Effect.flatMap(Accounts, (accounts) =>
    accounts.register({
      email: "ann@example.org",
      password: "the first password",
      handle: "ann",
      displayName: "Ann",
      accessCode: Option.getOrThrow(code)
    })
  )
})

/** The token of the one link of this node's origin that a mail carries. */
const linkToken = (text: string, path: string) => {
  const link = text.match(new RegExp(`${ORIGIN}${path}\\?token=(\\S+)`))
  expect(link).not.toBeNull()
  return link![1]
}

describe("mail flows", () => {
  it.effect("mail a confirmation link that confirms the address once", () =>
    Effect.gen(function* () {
      const flows = yield* MailFlows
      const outbox = yield* Outbox
      const { being } = yield* registerOwner

      const pending = yield* flows.sendVerification(being.id)
      expect(pending).toMatchObject({ email: "ann@example.org", verified: false, pending: true, emailConfigured: true })
      const [mail] = yield* outbox.sent
      expect(mail).toMatchObject({ to: "ann@example.org", subject: "Confirm your email address" })

      const token = linkToken(mail.text, "/verify")
      yield* flows.verify(token)
      expect(yield* flows.status(being.id)).toMatchObject({ verified: true, pending: false })
      expect((yield* Effect.flip(flows.verify(token))).error).toBe("invalid_token")
    }).pipe(Effect.provide(authFeature))
  )

  it.effect("mail a reset link for a known address; it sets the password once and ends every session", () =>
    Effect.gen(function* () {
      const flows = yield* MailFlows
      const outbox = yield* Outbox
      const accounts = yield* Accounts
      const sessions = yield* Sessions
      const { token: session } = yield* registerOwner

      yield* flows.requestReset("nobody@example.org")
      yield* flows.requestReset("ann@example.org")
      // The lookup runs off the answer's path: the next mail is the known address's, not the unknown one's.
      const mail = yield* outbox.next
      expect(mail).toMatchObject({ to: "ann@example.org", subject: "Reset your password" })

      const token = linkToken(mail.text, "/reset")
      yield* flows.resetPassword(token, "a new password")
      expect(yield* sessions.resolve(session)).toEqual(Option.none())
      expect((yield* accounts.login("ann@example.org", "a new password")).being.emailVerified).toBe(true)
      expect((yield* Effect.flip(accounts.login("ann@example.org", "the first password"))).error).toBe(
        "invalid_credentials"
      )
      expect((yield* Effect.flip(flows.resetPassword(token, "a third password"))).error).toBe("invalid_token")
    }).pipe(Effect.provide(authFeature))
  )
})
