/** The session cache's own rules: its bound, least recently used out first, and a raced read not kept. */
import * as Effect from "effect/Effect"
import { describe, expect, it } from "vitest"
import type { SessionShape } from "../../../extensions/accounts/contract/session.ts"
import { SESSION_CACHE_SIZE, SessionCache } from "../../../extensions/accounts/session-cache.ts"

const cache = () => Effect.runSync(Effect.provide(SessionCache, SessionCache.Default))

const session = (n: number) => ({ sessionId: `s${n}`, beingId: `b${n}`, isOwner: false }) as SessionShape
const later = Date.now() + 60_000

describe("the session cache", () => {
  it("holds at most its bound, dropping the least recently used", () => {
    const sessions = cache()
    for (let n = 0; n < SESSION_CACHE_SIZE; n++) sessions.keep(sessions.generation(), `t${n}`, session(n), later)
    expect(sessions.get("t0", Date.now())).toEqual(session(0)) // t0 is now the most recently used
    sessions.keep(sessions.generation(), "t-new", session(-1), later)
    expect(sessions.get("t1", Date.now())).toBeUndefined()
    expect(sessions.get("t0", Date.now())).toEqual(session(0))
    expect(sessions.get("t-new", Date.now())).toEqual(session(-1))
  })

  it("does not keep what was read before a change it did not see", () => {
    const sessions = cache()
    const readAt = sessions.generation()
    sessions.forgetBeing("b1")
    sessions.keep(readAt, "t1", session(1), later)
    expect(sessions.get("t1", Date.now())).toBeUndefined()
  })

  it("answers nothing for a session past its expiry", () => {
    const sessions = cache()
    sessions.keep(sessions.generation(), "t1", session(1), Date.now() - 1)
    expect(sessions.get("t1", Date.now())).toBeUndefined()
  })
})
