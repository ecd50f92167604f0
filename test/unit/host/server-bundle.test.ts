/**
 * What `npm start` loads (host/main.ts): the node's modules bundled once and reused until a source changes. A small
 * project stands in for the repository: a module reading a file beside itself through `import.meta.url`, a package of
 * node_modules that stays outside the bundle, and an entry that must not run as a main module when imported.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { spawnSync } from "node:child_process"
import { dirname, join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { afterAll, describe, expect, test } from "vitest"
import { ensureServerBundle, isBundled } from "../../../host/server-bundle.ts"

const root = mkdtempSync(join(tmpdir(), "server-bundle-"))
const cacheDir = join(root, "cache")
const write = (path: string, text: string) => {
  mkdirSync(join(root, path, ".."), { recursive: true })
  writeFileSync(join(root, path), text)
}

write("package-lock.json", "{}\n")
write("lib/greeting.txt", "hello from beside the module\n")
write(
  "lib/read.ts",
  `import { readFileSync } from "node:fs"
export const greeting: string = readFileSync(new URL("./greeting.txt", import.meta.url), "utf8").trim()
`
)
write(
  "node_modules/outside-pkg/package.json",
  JSON.stringify({ name: "outside-pkg", type: "module", main: "index.js" })
)
write("node_modules/outside-pkg/index.js", "export const where = import.meta.url\n")
// A CommonJS package of the bundled list (the name is what counts), with a named export beside its function.
write("node_modules/semver/package.json", JSON.stringify({ name: "semver", main: "index.js" }))
write("node_modules/semver/index.js", "module.exports = function semver() {}\nmodule.exports.named = 'named'\n")
write(
  "host/start.ts",
  `import { where } from "outside-pkg"
import commented from "xtend"
import { greeting } from "../lib/read.ts"
export const start = (): { greeting: string; where: string } => ({ greeting, where })
export const word = (): string => commented.word
export const lazyNamed = async (): Promise<unknown> => ((await import("semver")) as { named?: unknown }).named
if (import.meta.main) throw new Error("the bundle was run as a main module")
`
)

// The bundle's runnable entry, as host/serve.ts: what host/bundled-start.ts replaces its process with.
write(
  "host/serve.ts",
  `const { start } = await import("./start.ts")
console.log(JSON.stringify(start()))
`
)
// A bundled CommonJS package (the name is what counts) whose comments esbuild keeps, one of them outside ASCII.
write("node_modules/xtend/package.json", JSON.stringify({ name: "xtend", main: "index.js" }))
write(
  "node_modules/xtend/index.js",
  "module.exports = {\n  // the response\u2019s type, \u00a7 5.2\n  word: 'caf\u00e9 \u2192'\n}\n"
)

const options = { root, cacheDir }
const load = async (url: string) =>
  ((await import(url)) as { start: () => { greeting: string; where: string } }).start()

describe("the node's bundle", () => {
  afterAll(() => rmSync(root, { recursive: true, force: true }))

  test("the first start bundles; files beside a module are found; a package outside stays in node_modules", async () => {
    const first = await ensureServerBundle(options)
    expect(first.built).toBe(true)
    expect(first.line).toMatch(/^Bundled the node's modules in \d+\.\d s \(cache\/[0-9a-f]{64}\)/)
    expect(fileURLToPath(first.url).startsWith(cacheDir)).toBe(true)
    const answer = await load(first.url)
    expect(answer.greeting).toBe("hello from beside the module")
    expect(answer.where).toBe(new URL("node_modules/outside-pkg/index.js", `file://${root}/`).href)
    expect(readFileSync(fileURLToPath(first.url), "utf8")).toContain('from "outside-pkg"')
  })

  test("its serve.mjs runs the node as plain JavaScript; its text is ASCII, what it says unchanged", async () => {
    const bundle = await ensureServerBundle(options)
    const ran = spawnSync(process.execPath, [bundle.serve], { encoding: "utf8" })
    expect(ran.status).toBe(0)
    expect(JSON.parse(ran.stdout).greeting).toBe("hello from beside the module")
    const module = (await import(bundle.url)) as { word: () => string }
    expect(module.word()).toBe("caf\u00e9 \u2192")
    for (const file of readdirSync(dirname(bundle.serve))) {
      expect(/[\u0080-\uffff]/.test(readFileSync(join(dirname(bundle.serve), file), "utf8")), file).toBe(false)
    }
  })

  test("the same sources in another folder get a bundle of their own, which names that folder", async () => {
    const first = await ensureServerBundle(options)
    const moved = mkdtempSync(join(tmpdir(), "server-bundle-moved-"))
    try {
      cpSync(root, moved, { recursive: true, filter: (path) => !path.startsWith(cacheDir) })
      const again = await ensureServerBundle({ root: moved, cacheDir })
      expect(again.built).toBe(true)
      expect(again.url).not.toBe(first.url)
      // The sources' own addresses in the bundle are the moved folder's (a module's import.meta.url).
      const text = readFileSync(fileURLToPath(again.url), "utf8")
      expect(text).toContain(pathToFileURL(join(moved, "lib", "read.ts")).href)
      expect(text).not.toContain(pathToFileURL(join(root, "lib", "read.ts")).href)
    } finally {
      rmSync(moved, { recursive: true, force: true })
    }
  })

  test("a package imported lazily is Node's to load, with its names, as without the bundle", async () => {
    const bundle = await ensureServerBundle(options)
    const module = (await import(bundle.url)) as { lazyNamed: () => Promise<unknown> }
    expect(await module.lazyNamed()).toBe("named")
  })

  test("an unchanged tree reuses the bundle; a changed source makes a new one beside it", async () => {
    const first = await ensureServerBundle(options)
    const again = await ensureServerBundle(options)
    expect(again).toEqual({ url: first.url, serve: first.serve, built: false, line: "" })

    write("lib/greeting.txt", "changed, but not a module\n")
    expect((await ensureServerBundle(options)).built).toBe(false)

    write("lib/read.ts", `export const greeting: string = "a new module"\n`)
    const rebuilt = await ensureServerBundle(options)
    expect(rebuilt.built).toBe(true)
    expect(rebuilt.url).not.toBe(first.url)
    expect((await load(rebuilt.url)).greeting).toBe("a new module")

    // A new lock file (a package added or upgraded) bundles again too.
    write("package-lock.json", '{"lockfileVersion":3}\n')
    expect((await ensureServerBundle(options)).built).toBe(true)
  })

  test("two starts at once both get a whole bundle, and only the newest few are kept", async () => {
    write("lib/read.ts", `export const greeting: string = "raced"\n`)
    const [a, b] = await Promise.all([ensureServerBundle(options), ensureServerBundle(options)])
    expect(a.url).toBe(b.url)
    expect((await load(a.url)).greeting).toBe("raced")
    for (const text of ["one", "two", "three", "four"]) {
      write("lib/read.ts", `export const greeting: string = "${text}"\n`)
      await ensureServerBundle(options)
    }
    const folders = readdirSync(cacheDir, { withFileTypes: true }).filter((entry) => entry.isDirectory())
    expect(folders.map((folder) => folder.name).every((name) => /^[0-9a-f]{64}$/.test(name))).toBe(true)
    expect(folders).toHaveLength(3)

    // Back to an earlier state: its older folder is the current bundle again, and survives the pruning.
    write("lib/read.ts", `export const greeting: string = "one"\n`)
    const back = await ensureServerBundle(options)
    expect((await load(back.url)).greeting).toBe("one")
    for (const text of ["five", "six"]) {
      write("lib/read.ts", `export const greeting: string = "${text}"\n`)
      await ensureServerBundle(options)
    }
    write("lib/read.ts", `export const greeting: string = "one"\n`)
    const again = await ensureServerBundle(options)
    expect(again.url).toBe(back.url)
    expect((await load(again.url)).greeting).toBe("one")
  })

  test("the effect ecosystem is bundled; native addons and packages that read their own files are not", () => {
    expect(["effect/Schema", "@effect/platform/HttpApi", "fast-check", "undici", "pg-protocol"].map(isBundled)).toEqual(
      [true, true, true, true, true]
    )
    expect(
      ["better-sqlite3", "pdfjs-dist/legacy/build/pdf.mjs", "pdfkit", "isolated-vm", "imapflow"].map(isBundled)
    ).toEqual([false, false, false, false, false])
  })
})
