/**
 * What `npm start` does before the node starts (host/main.ts calls `ensureUiBuild`): a second
 * start on an unchanged tree reuses the build and says so in one line; a build whose stamp no
 * longer matches, or that lost a file, is made again.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, test } from "vitest"
import { readStamp } from "../../ui/build-stamp.ts"
import { ensureUiBuild } from "../../ui/build.ts"

describe("npm start's web app build", () => {
  const outDir = mkdtempSync(join(tmpdir(), "ui-stamp-"))
  afterAll(() => rmSync(outDir, { recursive: true, force: true }))

  const shellWritten = () => statSync(join(outDir, "index.html")).mtimeMs

  test("the first start builds; a second on an unchanged tree reuses the build, in one line", async () => {
    const first = await ensureUiBuild({ outDir })
    expect(first.built).toBe(true)
    expect(first.line).toMatch(/^Built the web app into /)
    const stamp = readStamp(outDir)!
    expect(stamp.inputs).toContain("package-lock.json")
    // The contract modules the bundle reads live outside ui/ and count too.
    expect(stamp.inputs).toContain("host/contract/api.ts")
    const written = shellWritten()

    const second = await ensureUiBuild({ outDir })
    expect(second.built).toBe(false)
    expect(second.line).toMatch(
      /^Reused the web app's build in .+: its sources have not changed \(checked in \d+ ms\)$/
    )
    expect(second.line.split("\n")).toHaveLength(1)
    expect(shellWritten()).toBe(written)
  })

  test("a stamp that no longer matches the sources makes a new build", async () => {
    const stampPath = join(outDir, "build-stamp.json")
    writeFileSync(stampPath, JSON.stringify({ ...JSON.parse(readFileSync(stampPath, "utf8")), hash: "0".repeat(64) }))
    const rebuilt = await ensureUiBuild({ outDir })
    expect(rebuilt.built).toBe(true)
    expect(readStamp(outDir)!.hash).not.toBe("0".repeat(64))
    expect((await ensureUiBuild({ outDir })).built).toBe(false)
  })

  test("a build that lost a file is made again", async () => {
    const stamp = readStamp(outDir)!
    unlinkSync(join(outDir, stamp.places.desktop))
    expect((await ensureUiBuild({ outDir })).built).toBe(true)
    expect(statSync(join(outDir, readStamp(outDir)!.places.desktop)).isFile()).toBe(true)
  })
})
