/**
 * The `invites` table: invitations mailed with a fresh code. An invite reads whether its code
 * was spent from `access_codes`, and shows the code only as a mask.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import type { Page } from "../../../kernel/contract/page.ts"
import { BooleanColumn, operation } from "../../../kernel/repository.ts"
import { InviteEmail } from "../contract/records.ts"
import { maskCode } from "../tokens.ts"

/** An invite's row: the contract's record, with the code itself in place of its mask. */
const InviteRow = Schema.Struct({
  ...InviteEmail.omit("codeMask").fields,
  code: Schema.String,
  sent: BooleanColumn,
  spent: BooleanColumn
})

const toInvite = ({ code, ...row }: typeof InviteRow.Type): InviteEmail => ({ ...row, codeMask: maskCode(code) })

const NewInvite = Schema.Struct({
  id: Schema.String,
  email: Schema.String,
  note: Schema.String,
  code: Schema.String,
  createdBy: Schema.String,
  createdAt: Schema.String
})

export class InvitesRepository extends Effect.Service<InvitesRepository>()("auth/InvitesRepository", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.literal(`i.id AS id, i.email AS email, i.note AS note, i.code AS code, i.sent AS sent,
      i.error AS error, c.used_by IS NOT NULL AS spent, i.created_at AS "createdAt"`)

    /** A page of the invites, newest first; the id breaks a tie. */
    const selectPage = SqlSchema.findAll({
      Request: Schema.Struct({ limit: Schema.Int, offset: Schema.Int }),
      Result: InviteRow,
      execute: ({ limit, offset }) => sql`SELECT ${columns} FROM invites i LEFT JOIN access_codes c ON c.code = i.code
        ORDER BY i.created_at DESC, i.id DESC LIMIT ${limit} OFFSET ${offset}`
    })

    const selectOne = SqlSchema.findOne({
      Request: Schema.String,
      Result: InviteRow,
      execute: (id) =>
        sql`SELECT ${columns} FROM invites i LEFT JOIN access_codes c ON c.code = i.code WHERE i.id = ${id}`
    })

    const list = operation("auth.listInvites", (page: Page) =>
      Effect.map(selectPage(page), (rows) => rows.map(toInvite))
    )

    const findById = operation("auth.findInvite", (id: string) => Effect.map(selectOne(id), Option.map(toInvite)))

    const insert = operation(
      "auth.insertInvite",
      SqlSchema.void({
        Request: NewInvite,
        execute: (invite) => sql`INSERT INTO invites (id, email, note, code, created_by, created_at)
        VALUES (${invite.id}, ${invite.email}, ${invite.note}, ${invite.code}, ${invite.createdBy}, ${invite.createdAt})`
      })
    )

    /** Whether the mail left, and the mail server's refusal when it did not. */
    const recordDelivery = operation(
      "auth.recordInviteDelivery",
      SqlSchema.void({
        Request: Schema.Struct({ id: Schema.String, sent: BooleanColumn, error: Schema.NullOr(Schema.String) }),
        execute: ({ id, sent, error }) => sql`UPDATE invites SET sent = ${sent}, error = ${error} WHERE id = ${id}`
      })
    )

    return { list, findById, insert, recordDelivery } as const
  })
}) {}
