/**
 * Access codes: the owner's bootstrap code, codes the owner mints, and invitations that mail
 * a fresh code. A used code and the bootstrap code cannot be deleted.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { Conflict, InvalidRequest, NotFound } from "../../kernel/contract/errors.ts"
import { Settings } from "../../kernel/settings.ts"
import { nowIso } from "../../kernel/time.ts"
import { Mailer } from "../mail/mailer.ts"
import { PublicOrigin } from "../origin.ts"
import type { AccessCode, InviteEmail } from "./contract/records.ts"
import { maskCode, newAccessCode, newId } from "./tokens.ts"

/** Who mints the bootstrap code: the node itself, before any being exists. */
export const SYSTEM_MINTER = "system"

const codeColumns = `code, created_by AS createdBy, used_by AS usedBy, note, created_at AS createdAt, used_at AS usedAt`

export class AccessCodes extends Effect.Service<AccessCodes>()("host/AccessCodes", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const settings = yield* Settings
    const mailer = yield* Mailer
    const origin = (yield* PublicOrigin).url

    /**
     * Makes sure an owner can register: answers the bootstrap code while nobody owns the node
     * (the OWNER_ACCESS_CODE setting, else one generated once and kept), none afterwards.
     */
    const ensureBootstrap = sql.withTransaction(
      Effect.gen(function* () {
        const owners = yield* sql<{ n: number }>`SELECT count(*) AS n FROM beings WHERE is_owner = 1`
        if (owners[0].n > 0) return Option.none<string>()
        const wanted = Option.map(settings.ownerAccessCode, Redacted.value)
        const existing = yield* sql<{ code: string }>`SELECT code FROM access_codes WHERE is_bootstrap = 1 AND used_by IS NULL`
        const code = Option.getOrElse(wanted, () => existing[0]?.code ?? newAccessCode())
        if (existing.some((row) => row.code === code)) return Option.some(code)
        yield* sql`DELETE FROM access_codes WHERE is_bootstrap = 1 AND used_by IS NULL`
        const now = yield* nowIso
        yield* sql`INSERT INTO access_codes (code, created_by, note, is_bootstrap, created_at)
          VALUES (${code}, ${SYSTEM_MINTER}, 'owner bootstrap code', 1, ${now})`
        return Option.some(code)
      })
    )

    const list = (filter: "all" | "unused") =>
      sql<AccessCode>`SELECT ${sql.literal(codeColumns)} FROM access_codes
        ${filter === "unused" ? sql`WHERE used_by IS NULL` : sql``} ORDER BY created_at DESC, code`

    const mint = (ownerId: string, count: number, note: string) =>
      sql.withTransaction(
        Effect.gen(function* () {
          const now = yield* nowIso
          const codes = Array.from({ length: count }, newAccessCode)
          for (const code of codes) {
            yield* sql`INSERT INTO access_codes (code, created_by, note, created_at) VALUES (${code}, ${ownerId}, ${note}, ${now})`
          }
          return yield* sql<AccessCode>`SELECT ${sql.literal(codeColumns)} FROM access_codes WHERE ${sql.in("code", codes)}
            ORDER BY code`
        })
      )

    const remove = (code: string) =>
      sql.withTransaction(
        Effect.gen(function* () {
          const rows = yield* sql<{ usedBy: string | null; isBootstrap: number }>`
            SELECT used_by AS usedBy, is_bootstrap AS isBootstrap FROM access_codes WHERE code = ${code}`
          const row = rows[0]
          if (row === undefined) return yield* Effect.fail(new NotFound({ message: "There is no such access code." }))
          if (row.isBootstrap === 1) {
            return yield* Effect.fail(
              new InvalidRequest({ error: "bootstrap_code", message: "The owner's bootstrap code cannot be deleted." })
            )
          }
          if (row.usedBy !== null) {
            return yield* Effect.fail(
              new InvalidRequest({ error: "code_used", message: "This code has been used; it stays as a record of who joined with it." })
            )
          }
          yield* sql`DELETE FROM access_codes WHERE code = ${code}`
        })
      )

    const inviteColumns = sql.literal(`i.id AS id, i.email AS email, i.note AS note, i.code AS code, i.sent AS sent,
      i.error AS error, c.used_by IS NOT NULL AS spent, i.created_at AS createdAt`)

    const toInvite = (row: {
      id: string; email: string; note: string; code: string; sent: number; error: string | null; spent: number; createdAt: string
    }): InviteEmail => ({
      id: row.id,
      email: row.email,
      note: row.note,
      codeMask: maskCode(row.code),
      sent: row.sent === 1,
      error: row.error,
      spent: row.spent === 1,
      createdAt: row.createdAt
    })

    const selectInvites = (id?: string) =>
      sql<Parameters<typeof toInvite>[0]>`SELECT ${inviteColumns} FROM invites i
        LEFT JOIN access_codes c ON c.code = i.code ${id === undefined ? sql`` : sql`WHERE i.id = ${id}`}
        ORDER BY i.created_at DESC`.pipe(
        Effect.map((rows) => rows.map(toInvite))
      )

    const listInvites = selectInvites()

    /** Mints a code and mails it; the invite row records whether the mail left. */
    const invite = (ownerId: string, email: string, note: string) =>
      Effect.gen(function* () {
        if (!mailer.configured) {
          return yield* Effect.fail(
            new Conflict({ error: "email_not_configured", message: "This node cannot send mail: set SMTP_URL first." })
          )
        }
        const [code] = yield* mint(ownerId, 1, note === "" ? `invite for ${email}` : note)
        const id = newId()
        const now = yield* nowIso
        yield* sql`INSERT INTO invites (id, email, note, code, created_by, created_at)
          VALUES (${id}, ${email}, ${note}, ${code.code}, ${ownerId}, ${now})`
        const result = yield* Effect.either(
          mailer.send({
            to: email,
            subject: "You are invited to a personal node",
            text: [
              "You have been invited to join a personal node.",
              note === "" ? "" : `Note from the owner: ${note}`,
              `Your access code: ${code.code}`,
              `Register at ${origin}/register?code=${encodeURIComponent(code.code)}`
            ].filter((line) => line !== "").join("\n\n")
          })
        )
        yield* sql`UPDATE invites SET sent = ${result._tag === "Right" ? 1 : 0},
          error = ${result._tag === "Left" ? result.left.message : null} WHERE id = ${id}`
        const [row] = yield* selectInvites(id)
        return row
      })

    return { ensureBootstrap, list, mint, remove, invite, listInvites } as const
  })
}) {}
