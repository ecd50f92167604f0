/**
 * The public waitlist. There is no automatic promotion: the owner reads the list (or its CSV)
 * and mints codes. Joining twice with one address keeps the first entry and answers the same.
 */
import * as Effect from "effect/Effect"
import type * as CsvStringify from "csv-stringify/sync"
import { nowIso } from "../../kernel/time.ts"
import type { Page } from "../../kernel/contract/page.ts"
import type { WaitlistRow } from "./contract/records.ts"
import { WaitlistRepository } from "./repositories/waitlist.ts"
import { lazyModule } from "../../kernel/lazy-module.ts"
import { spanNamed } from "../../kernel/spans.ts"

/** At first use: only the owner's CSV of the waitlist needs it. */
const csvOf = lazyModule<typeof CsvStringify>("csv-stringify/sync")

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
export const waitlistCsv = (rows: ReadonlyArray<WaitlistRow>): string =>
  csvOf().stringify(
    rows.map((row) => [row.email, row.name, row.why, row.createdAt].map(neutraliseCell)),
    {
      header: true,
      columns: ["email", "name", "why", "createdAt"],
      record_delimiter: "windows",
      quoted_match: /[\r\n]|^ | $/
    }
  )

export class Waitlist extends Effect.Service<Waitlist>()("auth/Waitlist", {
  effect: Effect.gen(function* () {
    const repository = yield* WaitlistRepository

    const join = (entry: Omit<WaitlistRow, "createdAt">) =>
      Effect.flatMap(nowIso, (createdAt) => repository.insertIfNew({ ...entry, createdAt })).pipe(
        spanNamed("auth.joinWaitlist")
      )

    /** Every entry, for the CSV. */
    const list = repository.list()

    const page = (page: Page) => repository.page(page)

    return { join, list, page } as const
  }),
  dependencies: [WaitlistRepository.Default]
}) {}
