/**
 * The public waitlist. There is no automatic promotion: the owner reads the list (or its CSV)
 * and mints codes. Joining twice with one address keeps the first entry and answers the same.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import { stringify } from "csv-stringify/sync"
import { nowIso } from "../../kernel/time.ts"

interface WaitlistEntry {
  readonly email: string
  readonly name: string
  readonly why: string
  readonly createdAt: string
}

/**
 * A spreadsheet runs a cell that starts with = + - @ (or a tab or carriage return) as a
 * formula; a leading apostrophe makes it plain text again.
 */
export const neutraliseCell = (value: string): string => (/^[=+\-@\t\r]/.test(value) ? `'${value}` : value)

/**
 * RFC 4180: CRLF between records, a field quoted when it holds a quote, comma, CR or LF (or
 * starts or ends with a space, which some readers trim). The library quotes a field only for the
 * record delimiter in full, so a lone LF or CR has to be named here, or a reader that ends a
 * record at any line break (Python's csv) splits the row.
 */
export const waitlistCsv = (rows: ReadonlyArray<WaitlistEntry>): string =>
  stringify(
    rows.map((row) => [row.email, row.name, row.why, row.createdAt].map(neutraliseCell)),
    { header: true, columns: ["email", "name", "why", "createdAt"], record_delimiter: "windows", quoted_match: /[\r\n]|^ | $/ }
  )

export class Waitlist extends Effect.Service<Waitlist>()("host/Waitlist", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const join = (entry: Omit<WaitlistEntry, "createdAt">) =>
      Effect.flatMap(nowIso, (now) =>
        sql`INSERT INTO waitlist (email, name, why, created_at) VALUES (${entry.email}, ${entry.name}, ${entry.why}, ${now})
          ON CONFLICT (email) DO NOTHING`.pipe(Effect.asVoid)
      )

    const list = sql<WaitlistEntry>`SELECT email, name, why, created_at AS createdAt FROM waitlist ORDER BY created_at, email`

    return { join, list } as const
  })
}) {}
