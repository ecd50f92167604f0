/**
 * The single-use tokens that mailed links carry (verify an address, reset a password): opaque,
 * stored as a digest with the address they were issued for. The reset link is also what
 * `npm run owner:reset` prints on a node that sends no mail.
 */
import { isoIn, nowIso } from "../../kernel/time.ts"
import { MailTokensRepository, type MailTokenPurpose } from "./repositories/mail-tokens.ts"
import { digest, newToken } from "./tokens.ts"
import { fnNamed } from "../../kernel/spans.ts"

const HOUR_MS = 60 * 60 * 1000
export const VERIFY_LIFETIME_MS = 24 * HOUR_MS
export const RESET_LIFETIME_MS = HOUR_MS

/** Stores a new token's digest; answers the token itself, which only the link carries. */
export const issueMailToken = fnNamed("auth.issueMailToken")(function* (
  beingId: string,
  purpose: MailTokenPurpose,
  email: string,
  lifetimeMs: number
) {
  const tokens = yield* MailTokensRepository
  const token = newToken()
  yield* tokens.insert({
    tokenHash: digest(token),
    beingId,
    purpose,
    email,
    createdAt: yield* nowIso,
    expiresAt: yield* isoIn(lifetimeMs)
  })
  return token
})

/** The web app's reset place with the token: where a person sets the new password. */
export const resetLinkOf = (origin: string, token: string) => `${origin}/reset?token=${token}`
