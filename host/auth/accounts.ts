/**
 * Accounts: registration gated by a single-use access code, login, and the owner's
 * suspension switch. Code redemption, the first-human check and handle/email uniqueness
 * run in one transaction so racing registrations cannot both win.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import { Conflict, Forbidden, InvalidRequest, NotFound, Unauthorized } from "../../kernel/contract/errors.ts"
import { nowIso } from "../../kernel/time.ts"
import { checkPassword, hashPassword, UNUSABLE_HASH } from "./passwords.ts"
import { beingColumns, type BeingRow, toBeing } from "./being-row.ts"
import type { SessionShape } from "./contract/session.ts"
import { Sessions } from "./sessions.ts"
import { newId } from "./tokens.ts"

export interface Registration {
  readonly email: string
  readonly password: string
  readonly handle: string
  readonly displayName: string
  readonly accessCode: string
}

const wrongPassword = new Forbidden({
  error: "wrong_password",
  message: "That is not your current password. Nothing was changed."
})

const invalidCode = new Forbidden({
  error: "invalid_access_code",
  message: "That access code is not valid or has already been used. Ask the owner of this node for a new one."
})

export class Accounts extends Effect.Service<Accounts>()("host/Accounts", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const sessions = yield* Sessions

    const findBeing = (id: string) =>
      Effect.flatMap(
        sql<BeingRow>`SELECT ${sql.literal(beingColumns)} FROM beings WHERE id = ${id} AND kind = 'human'`,
        (rows) =>
          rows[0] === undefined
            ? Effect.fail(new NotFound({ message: "There is no account with that id." }))
            : Effect.succeed(toBeing(rows[0]))
      )

    /** Creates the account and its first session; answers the being and the session token. */
    const register = (request: Registration) =>
      Effect.gen(function* () {
        const passwordHash = yield* hashPassword(request.password)
        return yield* sql.withTransaction(
          Effect.gen(function* () {
            const codes = yield* sql<{ code: string; isBootstrap: number; usedBy: string | null }>`
              SELECT code, is_bootstrap AS isBootstrap, used_by AS usedBy FROM access_codes
              WHERE code IN (${request.accessCode}, ${request.accessCode.toUpperCase()})`
            const code = codes.find((row) => row.usedBy === null)
            if (code === undefined) return yield* Effect.fail(invalidCode)
            const humans = yield* sql<{ n: number }>`SELECT count(*) AS n FROM beings WHERE kind = 'human'`
            // The first human is the owner, and only the bootstrap code can make one.
            const isOwner = humans[0].n === 0
            if (isOwner !== (code.isBootstrap === 1)) return yield* Effect.fail(invalidCode)
            const clash = yield* sql<{ handle: string; email: string }>`
              SELECT handle, email FROM beings WHERE handle = ${request.handle} OR email = ${request.email}`
            if (clash.some((row) => row.handle === request.handle)) {
              return yield* Effect.fail(
                new Conflict({ error: "handle_taken", message: `The handle @${request.handle} is taken. Pick another.` })
              )
            }
            if (clash.length > 0) {
              return yield* Effect.fail(
                new Conflict({ error: "email_taken", message: "An account with that email exists. Log in instead." })
              )
            }
            const id = newId()
            const now = yield* nowIso
            yield* sql`INSERT INTO beings (id, kind, handle, display_name, email, password_hash, is_owner, created_at)
              VALUES (${id}, 'human', ${request.handle}, ${request.displayName}, ${request.email}, ${passwordHash},
                ${isOwner ? 1 : 0}, ${now})`
            const spent = yield* sql`UPDATE access_codes SET used_by = ${id}, used_at = ${now}
              WHERE code = ${code.code} AND used_by IS NULL RETURNING code`
            if (spent.length !== 1) return yield* Effect.fail(invalidCode)
            const token = yield* sessions.open(id)
            const being = yield* findBeing(id)
            return { being, token }
          })
        )
      })

    const login = (email: string, password: string) =>
      Effect.gen(function* () {
        const rows = yield* sql<{ id: string; passwordHash: string | null }>`
          SELECT id, password_hash AS passwordHash FROM beings WHERE email = ${email} AND kind = 'human'`
        const matches = yield* checkPassword(password, rows[0]?.passwordHash ?? null)
        if (!matches) {
          return yield* Effect.fail(
            new Unauthorized({ error: "invalid_credentials", message: "That email and password do not match an account." })
          )
        }
        const token = yield* sessions.open(rows[0].id)
        const being = yield* findBeing(rows[0].id)
        return { being, token }
      })

    const listBeings = sql<BeingRow>`SELECT ${sql.literal(beingColumns)} FROM beings WHERE kind = 'human'
      ORDER BY created_at`.pipe(Effect.map((rows) => rows.map(toBeing)))

    /** Swaps the password hash for one nothing matches and drops every session; reversible. */
    const suspend = (id: string) =>
      Effect.gen(function* () {
        const being = yield* findBeing(id)
        if (being.isOwner) {
          return yield* Effect.fail(new InvalidRequest({ error: "cannot_suspend_owner", message: "The owner cannot be suspended." }))
        }
        if (being.suspended) return being
        yield* sql.withTransaction(
          Effect.zipRight(
            sql`UPDATE beings SET suspended_hash = password_hash, password_hash = ${UNUSABLE_HASH}
              WHERE id = ${id} AND suspended_hash IS NULL`,
            sessions.revokeAll(id)
          )
        )
        return yield* findBeing(id)
      })

    const unsuspend = (id: string) =>
      Effect.gen(function* () {
        yield* findBeing(id)
        yield* sql`UPDATE beings SET password_hash = suspended_hash, suspended_hash = NULL
          WHERE id = ${id} AND suspended_hash IS NOT NULL`
        return yield* findBeing(id)
      })

    /**
     * Sets a new password for the session's being once the current one is proven, and drops every
     * other session of that being (this one stays). bcrypt runs outside the transaction; the write
     * only lands if the hash is still the one compared, so of two racing changes one wins and the
     * other is refused as a wrong password.
     */
    const changePassword = (session: SessionShape, currentPassword: string, newPassword: string) =>
      Effect.gen(function* () {
        const rows = yield* sql<{ passwordHash: string | null }>`
          SELECT password_hash AS passwordHash FROM beings WHERE id = ${session.beingId}`
        const compared = rows[0]?.passwordHash ?? null
        if (!(yield* checkPassword(currentPassword, compared))) return yield* Effect.fail(wrongPassword)
        const passwordHash = yield* hashPassword(newPassword)
        return yield* sql.withTransaction(
          Effect.gen(function* () {
            const changed = yield* sql`UPDATE beings SET password_hash = ${passwordHash}
              WHERE id = ${session.beingId} AND password_hash = ${compared} RETURNING id`
            if (changed.length !== 1) return yield* Effect.fail(wrongPassword)
            return yield* sessions.revokeOthers(session)
          })
        )
      })

    return { findBeing, register, login, listBeings, suspend, unsuspend, changePassword } as const
  }),
  dependencies: [Sessions.Default]
}) {}
