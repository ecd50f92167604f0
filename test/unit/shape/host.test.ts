/**
 * host/ is the process and nothing else (docs/architecture.md): boot and start, the settings,
 * the HTTP server and request policy, the live channel's socket transport, the broadcast channel
 * and node.ts, the list of features. No feature lives there, so no folder of it is named after
 * one, and it stays small.
 */
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { repoRoot, sourceFiles } from "./imports.ts"

const folders = (dir: string) =>
  readdirSync(join(repoRoot, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)

describe("host/", () => {
  const hostFiles = sourceFiles().filter((file) => file.startsWith("host/"))

  it("holds at most 60 files", () => {
    expect(hostFiles.length).toBeGreaterThan(10)
    expect(hostFiles.length).toBeLessThanOrEqual(60)
  })

  it("has no folder named after a feature", () => {
    const features = new Set([...folders("extensions"), ...folders("actors")])
    expect(folders("host").filter((name) => features.has(name))).toEqual([])
  })
})

describe("every source file", () => {
  it("is at most 400 lines long", () => {
    const long = sourceFiles()
      .map((file) => ({ file, lines: readFileSync(join(repoRoot, file), "utf8").split("\n").length }))
      .filter(({ lines }) => lines > 400)
    expect(long).toEqual([])
  })
})
