/**
 * One writer of `beings`: every statement that inserts, updates or deletes its rows lives in the
 * beings repository, which tells the session cache of each (docs/decisions.md, the session cache).
 * Read from the sources as text; a migration reshapes the table before any process caches a row,
 * so migrations are left out.
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { repoRoot, sourceFiles } from "./imports.ts"

const beingsRepository = "extensions/accounts/repositories/beings.ts"

const writesBeings = /\b(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+"?beings"?(?![\w-])/i

const writers = sourceFiles()
  .filter((file) => !file.endsWith("/migrations.ts"))
  .filter((file) => writesBeings.test(readFileSync(join(repoRoot, file), "utf8")))

describe("the beings table", () => {
  it("is written by the beings repository only", () => {
    expect(writers).toEqual([beingsRepository])
  })
})
