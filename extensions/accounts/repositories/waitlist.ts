/** The `waitlist` table: one entry per address (the column compares without case). */
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { operation } from "../../../kernel/repository.ts"
import { WaitlistRow } from "../contract/records.ts"

export class WaitlistRepository extends Effect.Service<WaitlistRepository>()("auth/WaitlistRepository", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    /** Joining twice with one address keeps the first entry. */
    const insertIfNew = operation(
      "auth.insertWaitlistEntry",
      SqlSchema.void({
        Request: WaitlistRow,
        execute: (entry) => sql`INSERT INTO waitlist (email, name, why, created_at)
        VALUES (${entry.email}, ${entry.name}, ${entry.why}, ${entry.createdAt}) ON CONFLICT (email) DO NOTHING`
      })
    )

    const columns = sql.literal(`email, name, why, created_at AS "createdAt"`)

    /** Every entry, oldest first (the CSV the owner downloads); the address breaks a tie. */
    const list = operation(
      "auth.listWaitlist",
      SqlSchema.findAll({
        Request: Schema.Void,
        Result: WaitlistRow,
        execute: () => sql`SELECT ${columns} FROM waitlist ORDER BY created_at, email`
      })
    )

    /** A page of the entries in the same order. */
    const page = operation(
      "auth.pageWaitlist",
      SqlSchema.findAll({
        Request: Schema.Struct({ limit: Schema.Int, offset: Schema.Int }),
        Result: WaitlistRow,
        execute: ({ limit, offset }) =>
          sql`SELECT ${columns} FROM waitlist ORDER BY created_at, email LIMIT ${limit} OFFSET ${offset}`
      })
    )

    return { insertIfNew, list, page } as const
  })
}) {}
