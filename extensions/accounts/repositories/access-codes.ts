/**
 * The `access_codes` table: the owner's bootstrap code, minted codes and their use. Spending a
 * code is a compare-and-set, so of racing registrations with one code exactly one wins.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { BooleanColumn, operation } from "../../../kernel/repository.ts"
import { AccessCode } from "../contract/records.ts"

const codeColumns = `code, created_by AS "createdBy", used_by AS "usedBy", note, created_at AS "createdAt", used_at AS "usedAt"`

const NewCode = Schema.Struct({
  code: Schema.String,
  createdBy: Schema.String,
  note: Schema.String,
  isBootstrap: BooleanColumn,
  createdAt: Schema.String
})

const CodeState = Schema.Struct({
  code: Schema.String,
  isBootstrap: BooleanColumn,
  usedBy: Schema.NullOr(Schema.String)
})

export class AccessCodesRepository extends Effect.Service<AccessCodesRepository>()("auth/AccessCodesRepository", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.literal(codeColumns)

    /** A page of the codes (or of the unused ones), newest first; the code breaks a tie. */
    const list = operation(
      "auth.listCodes",
      SqlSchema.findAll({
        Request: Schema.Struct({ filter: Schema.Literal("all", "unused"), limit: Schema.Int, offset: Schema.Int }),
        Result: AccessCode,
        execute: ({ filter, limit, offset }) => sql`SELECT ${columns} FROM access_codes
        ${filter === "unused" ? sql`WHERE used_by IS NULL` : sql``} ORDER BY created_at DESC, code
        LIMIT ${limit} OFFSET ${offset}`
      })
    )

    const listByCode = operation(
      "auth.listCodesByCode",
      SqlSchema.findAll({
        Request: Schema.Array(Schema.String),
        Result: AccessCode,
        execute: (codes) => sql`SELECT ${columns} FROM access_codes WHERE ${sql.in("code", codes)} ORDER BY code`
      })
    )

    /** The state of each of the given codes that exists: whether it is the bootstrap code and who used it. */
    const states = operation(
      "auth.codeStates",
      SqlSchema.findAll({
        Request: Schema.Array(Schema.String),
        Result: CodeState,
        execute: (codes) =>
          sql`SELECT code, is_bootstrap AS "isBootstrap", used_by AS "usedBy" FROM access_codes WHERE ${sql.in("code", codes)}`
      })
    )

    const unusedBootstrap = operation(
      "auth.unusedBootstrapCodes",
      SqlSchema.findAll({
        Request: Schema.Void,
        Result: Schema.Struct({ code: Schema.String }),
        execute: () => sql`SELECT code FROM access_codes WHERE is_bootstrap = 1 AND used_by IS NULL`
      })
    )

    const deleteUnusedBootstrap = operation(
      "auth.deleteUnusedBootstrapCodes",
      SqlSchema.void({
        Request: Schema.Void,
        execute: () => sql`DELETE FROM access_codes WHERE is_bootstrap = 1 AND used_by IS NULL`
      })
    )

    const insert = operation(
      "auth.insertCode",
      SqlSchema.void({
        Request: NewCode,
        execute: (code) => sql`INSERT INTO access_codes (code, created_by, note, is_bootstrap, created_at)
        VALUES (${code.code}, ${code.createdBy}, ${code.note}, ${code.isBootstrap}, ${code.createdAt})`
      })
    )

    const Spend = Schema.Struct({ code: Schema.String, usedBy: Schema.String, usedAt: Schema.String })
    const markUsed = SqlSchema.findAll({
      Request: Spend,
      Result: Schema.Struct({ code: Schema.String }),
      execute: ({ code, usedBy, usedAt }) =>
        sql`UPDATE access_codes SET used_by = ${usedBy}, used_at = ${usedAt} WHERE code = ${code} AND used_by IS NULL RETURNING code`
    })

    /** Marks the code used by the being, if nobody has used it yet; answers whether this call did. */
    const spend = operation("auth.spendCode", (request: typeof Spend.Type) =>
      Effect.map(markUsed(request), (rows) => rows.length === 1)
    )

    const remove = operation(
      "auth.deleteCodeRow",
      SqlSchema.void({
        Request: Schema.String,
        execute: (code) => sql`DELETE FROM access_codes WHERE code = ${code}`
      })
    )

    return { list, listByCode, states, unusedBootstrap, deleteUnusedBootstrap, insert, spend, remove } as const
  })
}) {}
