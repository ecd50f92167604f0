import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { cachedBundle } from "../../../kernel/extensions/isolate/bundle-cache.ts"
import { writePluginFolder } from "../../support/plugin-folder.ts"

const root = mkdtempSync(join(tmpdir(), "bundle-cache-"))
afterAll(() => rmSync(root, { recursive: true, force: true }))

const dir = join(
  root,
  writePluginFolder(
    root,
    "cached",
    {},
    `import { greeting } from "./greeting.js"\nexport const activate = () => greeting\n`
  )
)
const cacheFile = join(root, "cache", "cached.json")
const writeGreeting = (text: string) =>
  writeFileSync(join(dir, "greeting.js"), `export const greeting = ${JSON.stringify(text)}\n`)

/** Marks the cached code, so a test can tell a reuse from a fresh bundle. */
const markCache = () => {
  const cached = JSON.parse(readFileSync(cacheFile, "utf8")) as { code: string }
  writeFileSync(cacheFile, JSON.stringify({ ...cached, code: `${cached.code}\n// reused` }))
}

describe("a plugin's bundle kept between boots", () => {
  it("is reused while every file that went in is unchanged, and bundled afresh when one changes", async () => {
    writeGreeting("hello")
    expect(await cachedBundle(dir, "index.js", cacheFile)).toContain(`"hello"`)
    markCache()
    expect(await cachedBundle(dir, "index.js", cacheFile)).toContain("// reused")

    writeGreeting("hello again")
    const fresh = await cachedBundle(dir, "index.js", cacheFile)
    expect(fresh).toContain(`"hello again"`)
    expect(fresh).not.toContain("// reused")
  })

  it("is not reused for another main, nor when the cache is unreadable", async () => {
    writePluginFolder(root, "cached", {}, `export const activate = () => "other"\n`)
    markCache()
    writeFileSync(join(dir, "other.js"), `export const activate = () => "other main"\n`)
    expect(await cachedBundle(dir, "other.js", cacheFile)).toContain("other main")
    writeFileSync(cacheFile, "{ not json")
    expect(await cachedBundle(dir, "other.js", cacheFile)).toContain("other main")
  })
})
