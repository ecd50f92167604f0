import { describe, expect, it } from "vitest"
import { digest, signCookie } from "../../../extensions/accounts/tokens.ts"
import { verifiedCookies } from "../../../extensions/accounts/verified-cookies.ts"

const secret = "a-secret-of-this-node"

describe("verifiedCookies", () => {
  it("answers a signed value's token and digest, and the same entry again without verifying twice", () => {
    const verify = verifiedCookies(secret, 10)
    const value = signCookie("token-1", secret)
    const first = verify(value)
    expect(first).toEqual({ token: "token-1", tokenHash: digest("token-1") })
    // The kept entry itself: a second verification would make a new one.
    expect(verify(value)).toBe(first)
  })

  it("refuses a value signed under another secret, a tampered signature and no signature, and keeps none of them", () => {
    const verify = verifiedCookies(secret, 10)
    const good = signCookie("token-1", secret)
    expect(verify(good)).not.toBeNull()
    const signature = good.slice(good.lastIndexOf(".") + 1)
    const tampered = `token-1.${signature.startsWith("A") ? "B" : "A"}${signature.slice(1)}`
    for (const value of [signCookie("token-1", "another-secret"), tampered, "token-1", "token-1.", ".x"]) {
      expect(verify(value)).toBeNull()
      expect(verify(value)).toBeNull()
    }
  })

  it("keeps at most its size, dropping the least recently used", () => {
    const verify = verifiedCookies(secret, 2)
    const [a, b, c] = ["a", "b", "c"].map((token) => signCookie(token, secret))
    const keptA = verify(a!)
    const keptB = verify(b!)
    expect(verify(a!)).toBe(keptA) // a is now the most recently used
    verify(c!) // drops b
    expect(verify(a!)).toBe(keptA)
    const againB = verify(b!)
    expect(againB).toEqual(keptB)
    expect(againB).not.toBe(keptB)
  })
})
