/** The auth feature builds alone (no HTTP, no other feature) and the owner registers with the owner code. */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { Accounts } from "../../../extensions/accounts/accounts.ts"
import { AccessCodes } from "../../../extensions/accounts/codes.ts"
import { Sessions } from "../../../extensions/accounts/sessions.ts"
import { authFeature, OWNER_CODE } from "./auth-feature.ts"

const owner = { email: "ann@example.org", password: "a long password", handle: "ann", displayName: "Ann" }

describe("the auth feature alone", () => {
  it.effect("registers the owner with the owner code, opens a session, and spends the code", () =>
    Effect.gen(function* () {
      const codes = yield* AccessCodes
      const accounts = yield* Accounts
      const sessions = yield* Sessions
      expect(yield* codes.ensureBootstrap).toEqual(Option.some(OWNER_CODE))

      const { being, token } = yield* accounts.register({ ...owner, accessCode: OWNER_CODE })
      expect(being).toMatchObject({ handle: "ann", isOwner: true, emailVerified: false, suspended: false })
      const session = yield* sessions.resolve(token)
      expect(Option.map(session, (found) => [found.beingId, found.isOwner])).toEqual(Option.some([being.id, true]))

      expect(yield* codes.ensureBootstrap).toEqual(Option.none())
      const again = yield* Effect.flip(
        accounts.register({ ...owner, email: "bob@example.org", handle: "bob", accessCode: OWNER_CODE })
      )
      expect(again.error).toBe("invalid_access_code")
      expect((yield* accounts.listBeings).map((listed) => listed.handle)).toEqual(["ann"])
    }).pipe(Effect.provide(authFeature))
  )

  it.effect("refuses a minted code for the first registration: only the owner code makes the owner", () =>
    Effect.gen(function* () {
      const codes = yield* AccessCodes
      const accounts = yield* Accounts
      const [minted] = yield* codes.mint("system", 1, "")
      const refused = yield* Effect.flip(accounts.register({ ...owner, accessCode: minted.code }))
      expect(refused.error).toBe("invalid_access_code")
      expect(yield* accounts.listBeings).toEqual([])
    }).pipe(Effect.provide(authFeature))
  )
})
