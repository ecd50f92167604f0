import { describe, expect, it } from "vitest"
import { makeRateCounter } from "../../../kernel/http/rate-limit.ts"

describe("rate counter", () => {
  it("allows the budget in a minute, then says how long to wait, then opens a new window", () => {
    const hit = makeRateCounter()
    const t0 = 1_000_000
    for (let i = 0; i < 10; i++) expect(hit("auth|a", 10, t0 + i)).toBe(0)
    expect(hit("auth|a", 10, t0 + 20_000)).toBe(40)
    expect(hit("auth|b", 10, t0 + 20_000)).toBe(0)
    expect(hit("auth|a", 10, t0 + 59_999)).toBe(1)
    expect(hit("auth|a", 10, t0 + 60_000)).toBe(0)
  })

  it("does not let a burst straddle a minute boundary", () => {
    const hit = makeRateCounter()
    const boundary = 60_000 * 100
    for (let i = 0; i < 10; i++) expect(hit("k", 10, boundary - 500 + i)).toBe(0)
    expect(hit("k", 10, boundary + 10)).toBeGreaterThan(0)
  })
})
