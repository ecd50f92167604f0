/**
 * Signed session cookies already verified, so a signed-in request checks its cookie's HMAC once, not on every request.
 *
 * A cookie's value maps to its token and the token's SHA-256 digest (what the session cache and the sessions table
 * are keyed by): under one secret that never changes, so an entry needs no invalidation; whether the session still
 * lives is asked of the session cache or the database on every request, as before. Only values whose signature
 * verified are kept, so a forged cookie cannot fill it; a value not kept is verified as before (a constant-time
 * comparison). Bounded: the least recently used goes first, at the session cache's size.
 */
import { digest, unsignCookie } from "./tokens.ts"

export interface VerifiedToken {
  readonly token: string
  readonly tokenHash: string
}

export const verifiedCookies = (secret: string, size: number) => {
  // A Map keeps insertion order: re-inserting on a hit makes its first key the least recently used.
  const byValue = new Map<string, VerifiedToken>()
  /** The token and digest a signed cookie value carries, or null when its signature does not match. */
  return (value: string): VerifiedToken | null => {
    const kept = byValue.get(value)
    if (kept !== undefined) {
      byValue.delete(value)
      byValue.set(value, kept)
      return kept
    }
    const token = unsignCookie(value, secret)
    if (token === null) return null
    const verified = { token, tokenHash: digest(token) }
    byValue.set(value, verified)
    if (byValue.size > size) byValue.delete(byValue.keys().next().value!)
    return verified
  }
}
