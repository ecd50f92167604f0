/**
 * The kernel is the runtime and nothing domain-specific (docs/architecture.md; issue "One home per
 * feature", rule 7): no file under kernel/ names an HTTP route (`/api/...`), a provider the comms
 * feature speaks to, or the studio, not even in a comment. What is a feature's lives in its folder;
 * the kernel keeps the mechanism (a capability's kind, the adapter type a feature supplies).
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { repoRoot, sourceFiles } from "./imports.ts"

/** Case-insensitive: a route prefix, the providers behind chat and mail, the studio. */
const domainWords = ["/api/", "gmail", "telegram", "slack", "studio"]

describe("kernel/", () => {
  const kernelFiles = sourceFiles().filter((file) => file.startsWith("kernel/"))

  it("names no route, provider or studio", () => {
    expect(kernelFiles.length).toBeGreaterThan(50)
    const found = kernelFiles.flatMap((file) =>
      readFileSync(join(repoRoot, file), "utf8")
        .split("\n")
        .flatMap((line, index) =>
          domainWords.filter((word) => line.toLowerCase().includes(word)).map((word) => `${file}:${index + 1}: ${word}`)
        )
    )
    expect(found).toEqual([])
  })
})
