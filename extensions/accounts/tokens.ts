/**
 * Opaque secrets: session tokens, mail tokens and access codes. Only a SHA-256 digest of a
 * token is stored, so a copy of the database opens no session; the cookie carries the token
 * with an HMAC so a forged cookie is refused before the database is asked.
 */
import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from "node:crypto"

export const newToken = (): string => randomBytes(32).toString("base64url")

export const digest = (token: string): string => createHash("sha256").update(token).digest("base64url")

export const newId = (): string => randomBytes(12).toString("base64url")

export const signCookie = (token: string, secret: string): string =>
  `${token}.${createHmac("sha256", secret).update(token).digest("base64url")}`

/** The token inside a signed cookie value, or null when the signature does not match. */
export const unsignCookie = (value: string, secret: string): string | null => {
  const dot = value.lastIndexOf(".")
  if (dot <= 0) return null
  const token = value.slice(0, dot)
  const given = Buffer.from(value.slice(dot + 1))
  const expected = Buffer.from(createHmac("sha256", secret).update(token).digest("base64url"))
  return given.length === expected.length && timingSafeEqual(given, expected) ? token : null
}

/** Letters and digits a person cannot confuse when reading a code aloud (no I, O, 0, 1). */
const CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"

/** An access code like `K7QF-M2XP-9TZB`: 60 bits of randomness in three readable groups. */
export const newAccessCode = (): string => {
  const chars = Array.from({ length: 12 }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)])
  return [chars.slice(0, 4), chars.slice(4, 8), chars.slice(8)].map((group) => group.join("")).join("-")
}

/** What an invite list may show of a code: its first and last two characters. */
export const maskCode = (code: string): string =>
  code.length <= 4 ? "•".repeat(code.length) : `${code.slice(0, 2)}${"•".repeat(code.length - 4)}${code.slice(-2)}`
