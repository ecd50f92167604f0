/**
 * The accounts' repositories read back what they wrote identically on SQLite and PostgreSQL:
 * booleans as booleans, timestamps as the ISO text written, ids as given, and an email found
 * whatever its case.
 */
import { expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { AccessCodesRepository } from "../../../extensions/accounts/repositories/access-codes.ts"
import { BeingsRepository } from "../../../extensions/accounts/repositories/beings.ts"
import { SessionsRepository } from "../../../extensions/accounts/repositories/sessions.ts"
import { onEachDialect } from "../../support/dialects.ts"

const createdAt = "2026-11-24T17:00:00.123Z"
const owner = {
  id: "being_owner",
  handle: "ada",
  displayName: "Ada",
  email: "Ada@Example.org",
  passwordHash: "$2b$10$hash",
  isOwner: true,
  createdAt
}

onEachDialect("the accounts repositories", (database) => {
  it.effect(
    "read a being, a code and a session back as they were written",
    () =>
      Effect.gen(function* () {
        const beings = yield* BeingsRepository
        const codes = yield* AccessCodesRepository
        const sessions = yield* SessionsRepository

        yield* beings.insertHuman(owner)
        const found = Option.getOrThrow(yield* beings.findHuman(owner.id))
        expect(found).toEqual({
          id: owner.id,
          handle: "ada",
          displayName: "Ada",
          email: "Ada@Example.org",
          isOwner: true,
          emailVerified: false,
          suspended: false,
          createdAt
        })
        expect(Option.isSome(yield* beings.findOwner())).toBe(true)
        expect(yield* beings.anyHuman()).toBe(true)
        // An email matches whatever its case.
        expect(Option.map(yield* beings.credentialsByEmail("ada@example.ORG"), (row) => row.id)).toEqual(
          Option.some(owner.id)
        )

        yield* codes.insert({ code: "boot-code", createdBy: "node", note: "", isBootstrap: true, createdAt })
        yield* codes.insert({ code: "minted", createdBy: owner.id, note: "for Bo", isBootstrap: false, createdAt })
        const states = yield* codes.states(["boot-code", "minted"])
        expect([...states].sort((a, b) => a.code.localeCompare(b.code))).toEqual([
          { code: "boot-code", isBootstrap: true, usedBy: null },
          { code: "minted", isBootstrap: false, usedBy: null }
        ])

        const expiresAt = "2026-12-24T17:00:00.000Z"
        yield* sessions.insert({ id: "session_1", tokenHash: "digest", beingId: owner.id, createdAt, expiresAt })
        const resolved = yield* sessions.resolve({ tokenHash: "digest", now: createdAt })
        expect(
          Option.map(resolved, (row) => [row.session.sessionId, row.session.being.isOwner, row.expiresAt])
        ).toEqual(Option.some(["session_1", true, expiresAt]))
        expect(yield* sessions.resolve({ tokenHash: "digest", now: "2027-01-01T00:00:00.000Z" })).toEqual(Option.none())
      }).pipe(
        Effect.provide([BeingsRepository.Default, AccessCodesRepository.Default, SessionsRepository.Default]),
        Effect.provide(database())
      ),
    60_000
  )
})
