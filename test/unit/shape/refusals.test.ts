/**
 * Refusals are typed: a feature refuses with a named refusal declared in its contract
 * (`refusal(409, "InsufficientCredits", "insufficient_credits")`), so a caller branches on its tag,
 * never on a status. The generic class of each status belongs to the HTTP layer alone (a body that
 * does not decode, a route that is not there). Every named code is one docs/api.md lists.
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { isContract, repoRoot, sourceFiles } from "./imports.ts"

const statusClass =
  /\bnew (InvalidRequest|Unauthorized|Forbidden|NotFound|Conflict|PayloadTooLarge|UnsupportedMediaType|RateLimited|Unavailable)\(/g

/** The HTTP layer's own refusals, and the web app's (it decodes what the wire carries). */
const httpLayer = (file: string) =>
  file === "kernel/contract/errors.ts" ||
  file.startsWith("kernel/http/") ||
  file.startsWith("host/http/") ||
  file.startsWith("ui/")

const declaration = /\bextends refusal\(\s*(\d{3}),\s*"([A-Za-z]+)",\s*"([a-z0-9_]+)"\s*\)/g

const sources = sourceFiles().map((file) => ({ file, text: readFileSync(join(repoRoot, file), "utf8") }))

describe("refusals", () => {
  it("are named: no feature constructs a bare status class", () => {
    const bare = sources
      .filter(({ file }) => !httpLayer(file))
      .flatMap(({ file, text }) => [...text.matchAll(statusClass)].map((match) => `${file}: new ${match[1]}(`))
    expect(bare).toEqual([])
  })

  const declared = sources.flatMap(({ file, text }) =>
    [...text.matchAll(declaration)].map((match) => ({ file, status: match[1]!, tag: match[2]!, code: match[3]! }))
  )

  it("are declared in a contract, each tag once", () => {
    expect(declared.length).toBeGreaterThan(50)
    expect(declared.filter(({ file }) => !isContract(file)).map(({ file, tag }) => `${file}: ${tag}`)).toEqual([])
    const tags = declared.map(({ tag }) => tag)
    expect(tags.filter((tag, at) => tags.indexOf(tag) !== at)).toEqual([])
  })

  it("carry only codes docs/api.md lists", () => {
    const api = readFileSync(join(repoRoot, "docs/api.md"), "utf8")
    expect(
      declared.filter(({ code }) => !api.includes(`\`${code}\``)).map(({ tag, code }) => `${tag}: ${code}`)
    ).toEqual([])
  })
})
