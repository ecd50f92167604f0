/**
 * Accounts: registration gated by a single-use access code, login, and the owner's
 * suspension switch. Code redemption, the first-human check and handle/email uniqueness
 * run in one transaction so racing registrations cannot both win.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import {
  AccountNotFound,
  CannotSuspendOwner,
  EmailTaken,
  HandleTaken,
  InvalidAccessCode,
  InvalidCredentials,
  WrongPassword
} from "./contract/errors.ts"
import { orDieOnStorageFault } from "../../kernel/repository.ts"
import { nowIso } from "../../kernel/time.ts"
import { checkPassword, hashPassword, UNUSABLE_HASH } from "./passwords.ts"
import type { RegisterRequest } from "./contract/records.ts"
import type { SessionShape } from "./contract/session.ts"
import { AccessCodesRepository } from "./repositories/access-codes.ts"
import { BeingsRepository } from "./repositories/beings.ts"
import { Sessions } from "./sessions.ts"
import { newId } from "./tokens.ts"
import { fnNamed } from "../../kernel/spans.ts"

const wrongPassword = new WrongPassword({
  message: "That is not your current password. Nothing was changed."
})

const invalidCode = new InvalidAccessCode({
  message: "That access code is not valid or has already been used. Ask the owner of this node for a new one."
})

const taken = {
  handle: (handle: string) => new HandleTaken({ message: `The handle @${handle} is taken. Pick another.` }),
  email: () => new EmailTaken({ message: "An account with that email exists. Log in instead." })
}

export class Accounts extends Effect.Service<Accounts>()("auth/Accounts", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const sessions = yield* Sessions
    const beings = yield* BeingsRepository
    const codes = yield* AccessCodesRepository

    const findBeing = (id: string) =>
      Effect.flatMap(
        beings.findHuman(id),
        Option.match({
          onNone: () => Effect.fail(new AccountNotFound({ message: "There is no account with that id." })),
          onSome: Effect.succeed
        })
      )

    /** The node's owner, once someone has registered as one. */
    const findOwner = beings.findOwner()

    /** Creates the account and its first session; answers the being and the session token. */
    const register = fnNamed("auth.register")(function* (request: RegisterRequest) {
      const passwordHash = yield* hashPassword(request.password)
      return yield* sql.withTransaction(
        Effect.gen(function* () {
          const states = yield* codes.states([request.accessCode, request.accessCode.toUpperCase()])
          const code = states.find((state) => state.usedBy === null)
          if (code === undefined) return yield* Effect.fail(invalidCode)
          // The first human is the owner, and only the bootstrap code can make one.
          const isOwner = !(yield* beings.anyHuman())
          if (isOwner !== code.isBootstrap) return yield* Effect.fail(invalidCode)
          const clash = yield* beings.taken({ handle: request.handle, email: request.email })
          if (Option.isSome(clash))
            return yield* Effect.fail(clash.value === "handle" ? taken.handle(request.handle) : taken.email())
          const id = newId()
          const now = yield* nowIso
          yield* beings.insertHuman({
            id,
            handle: request.handle,
            displayName: request.displayName,
            email: request.email,
            passwordHash,
            isOwner,
            createdAt: now
          })
          if (!(yield* codes.spend({ code: code.code, usedBy: id, usedAt: now })))
            return yield* Effect.fail(invalidCode)
          const token = yield* sessions.open(id)
          const being = yield* findBeing(id)
          return { being, token }
        })
      )
    }, orDieOnStorageFault)

    const login = fnNamed("auth.login")(function* (email: string, password: string) {
      const account = yield* beings.credentialsByEmail(email)
      const hash = Option.match(account, { onNone: () => null, onSome: (found) => found.passwordHash })
      const matches = yield* checkPassword(password, hash)
      if (!matches || Option.isNone(account)) {
        return yield* Effect.fail(
          new InvalidCredentials({
            message: "That email and password do not match an account."
          })
        )
      }
      const token = yield* sessions.open(account.value.id)
      const being = yield* findBeing(account.value.id)
      return { being, token }
    })

    const listBeings = beings.listHumans()

    /** Swaps the password hash for one nothing matches and drops every session; reversible. */
    const suspend = fnNamed("auth.suspend")(function* (id: string) {
      const being = yield* findBeing(id)
      if (being.isOwner) {
        return yield* Effect.fail(new CannotSuspendOwner({ message: "The owner cannot be suspended." }))
      }
      if (being.suspended) return being
      yield* sql
        .withTransaction(Effect.zipRight(beings.suspend({ id, unusableHash: UNUSABLE_HASH }), sessions.revokeAll(id)))
        .pipe(orDieOnStorageFault)
      return yield* findBeing(id)
    })

    const unsuspend = fnNamed("auth.unsuspend")(function* (id: string) {
      yield* findBeing(id)
      yield* beings.unsuspend(id)
      return yield* findBeing(id)
    })

    /**
     * Sets a new password for the session's being once the current one is proven, and drops every
     * other session of that being (this one stays). bcrypt runs outside the transaction; the write
     * only lands if the hash is still the one compared, so of two racing changes one wins and the
     * other is refused as a wrong password.
     */
    const changePassword = fnNamed("auth.changePassword")(function* (
      session: SessionShape,
      currentPassword: string,
      newPassword: string
    ) {
      const account = yield* beings.credentialsById(session.beingId)
      const compared = Option.match(account, { onNone: () => null, onSome: (found) => found.passwordHash })
      if (!(yield* checkPassword(currentPassword, compared))) return yield* Effect.fail(wrongPassword)
      const passwordHash = yield* hashPassword(newPassword)
      return yield* sql.withTransaction(
        Effect.gen(function* () {
          const changed = yield* beings.replacePasswordHash({ id: session.beingId, compared, passwordHash })
          if (!changed) return yield* Effect.fail(wrongPassword)
          return yield* sessions.revokeOthers(session)
        })
      )
    }, orDieOnStorageFault)

    return { findBeing, findOwner, register, login, listBeings, suspend, unsuspend, changePassword } as const
  }),
  dependencies: [Sessions.Default, BeingsRepository.Default, AccessCodesRepository.Default]
}) {}
