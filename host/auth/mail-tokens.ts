/**
 * The single-use tokens that mailed links carry (verify an address, reset a password): opaque,
 * stored as a digest with the address they were issued for. The reset link is also what
 * `npm run owner:reset` prints on a node that sends no mail.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import { isoIn, nowIso } from "../../kernel/time.ts"
import { digest, newToken } from "./tokens.ts"

const HOUR_MS = 60 * 60 * 1000
export const VERIFY_LIFETIME_MS = 24 * HOUR_MS
export const RESET_LIFETIME_MS = HOUR_MS

export type MailTokenPurpose = "verify" | "reset"

/** Stores a new token's digest; answers the token itself, which only the link carries. */
export const issueMailToken = (beingId: string, purpose: MailTokenPurpose, email: string, lifetimeMs: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const token = newToken()
    yield* sql`INSERT INTO mail_tokens (token_hash, being_id, purpose, email, created_at, expires_at)
      VALUES (${digest(token)}, ${beingId}, ${purpose}, ${email}, ${yield* nowIso}, ${yield* isoIn(lifetimeMs)})`
    return token
  })

/** The web app's reset place with the token: where a person sets the new password. */
export const resetLinkOf = (origin: string, token: string) => `${origin}/reset?token=${token}`
