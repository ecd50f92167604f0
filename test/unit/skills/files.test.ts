import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startSkills, type SkillHarness } from "../../support/skills.ts"
import { at } from "../../support/json.ts"

let skills: SkillHarness
/** Being ada's uploads folder: the root of every call here outside a project. */
let uploads: string
let outside: string

const put = (relative: string, content = "") => {
  const file = join(uploads, relative)
  mkdirSync(join(file, ".."), { recursive: true })
  writeFileSync(file, content)
}

beforeAll(async () => {
  skills = await startSkills()
  uploads = join(skills.dataDir, "uploads", "ada")
  outside = join(skills.dataDir, "outside")
  mkdirSync(outside)
  writeFileSync(join(outside, "secret.txt"), "the secret")
  put("b-folder/inner.md", "# Inner\nneedle in the inner file\n")
  put("b-folder/deeper/z.txt", "zzz")
  put("a-folder/x.json", "{}")
  put("Beta.txt", "beta")
  put("alpha.txt", "first line\nthe Needle is here\nlast line")
  put(".env", "SECRET=1")
  put(".hidden/h.txt", "needle hidden")
  put("node_modules/pkg/index.js", "needle in noise")
  put(".git/HEAD", "ref")
  put("dist/out.js", "needle")
  put("__pycache__/m.pyc", "")
  put(".cache/c", "")
  symlinkSync(outside, join(uploads, "escape-dir"))
  symlinkSync(join(outside, "secret.txt"), join(uploads, "escape.txt"))
  symlinkSync(join(uploads, "alpha.txt"), join(uploads, "inside-link.txt"))
})
afterAll(() => skills.close())

/** The paths of a files.list output's entries, in order. */
const pathsOf = (output: unknown) =>
  ((at(output, "entries") ?? []) as ReadonlyArray<{ readonly path: string }>).map((entry) => entry.path)

describe("the file root", () => {
  const attempts = [
    ["files.list", (path: string) => ({ path })],
    ["files.read", (path: string) => ({ path })],
    ["files.write", (path: string) => ({ path, content: "pwned" })],
    ["files.search", (path: string) => ({ query: "secret", path })],
    ["docs.write_markdown", (path: string) => ({ path: path.replace(/\.txt$/, ".md"), content: "pwned" })]
  ] as const

  it("refuses '..', absolute paths and symlinks that lead outside, in every file skill", async () => {
    const escapes = [
      "../x",
      "a-folder/../../x",
      "..\\x",
      "/etc/passwd",
      "escape-dir",
      "escape-dir/secret.txt",
      "escape-dir/new.md"
    ]
    for (const [skill, input] of attempts) {
      // docs.write_markdown would add .md to a bare "escape-dir": a new file inside, not an escape.
      for (const path of escapes.filter((path) => skill !== "docs.write_markdown" || path !== "escape-dir")) {
        const outcome = await skills.invoke(skill, input(path))
        expect(outcome, `${skill} ${path}`).toMatchObject({ ok: false })
        expect(outcome.error, `${skill} ${path}`).toMatch(/climbs out|absolute|outside the root/)
        expect(outcome.error).not.toContain(skills.dataDir)
      }
    }
    for (const [skill, input] of [
      ["files.read", { path: "escape.txt" }],
      ["files.write", { path: "escape.txt", content: "pwned" }]
    ] as const) {
      const outcome = await skills.invoke(skill, input)
      expect(outcome, skill).toMatchObject({ ok: false, error: expect.stringContaining("outside the root") })
    }
    expect(readFileSync(join(outside, "secret.txt"), "utf8")).toBe("the secret")
  })

  it("keeps each call to its own root: a project's workspace, or the calling being's uploads", async () => {
    await skills.invoke("files.write", { path: "mine.txt", content: "bob's" }, { beingId: "bob" })
    await skills.invoke("files.write", { path: "plan.md", content: "project" }, { projectId: "p1" })
    expect(readFileSync(join(skills.dataDir, "uploads", "bob", "mine.txt"), "utf8")).toBe("bob's")
    expect(readFileSync(join(skills.dataDir, "projects", "p1", "workspace", "plan.md"), "utf8")).toBe("project")
    expect(await skills.invoke("files.read", { path: "mine.txt" })).toMatchObject({
      ok: false,
      error: "mine.txt does not exist."
    })
    expect((await skills.invoke("files.list", {}, { projectId: "p1" })).output).toMatchObject({
      root: "project",
      entries: [{ path: "plan.md" }]
    })
  })
})

describe("files.list", () => {
  it("lists one folder: folders first, then files, each alphabetical; noise, dotfiles and escaping links left out", async () => {
    const { output } = await skills.invoke("files.list", {})
    expect(at(output, "root")).toBe("uploads")
    expect(at(output, "path")).toBe("")
    expect(at(output, "truncated")).toBe(false)
    expect(pathsOf(output)).toEqual(["a-folder", "b-folder", "alpha.txt", "Beta.txt", "inside-link.txt"])
    expect(at(output, "entries", 0)).toEqual({
      path: "a-folder",
      name: "a-folder",
      ext: "",
      size: 0,
      mtime: expect.any(String),
      isDir: true
    })
    expect(at(output, "entries", 2)).toMatchObject({ name: "alpha.txt", ext: "txt", size: 39, isDir: false })
    expect(Number.isNaN(Date.parse(String(at(output, "entries", 2, "mtime"))))).toBe(false)
  })

  it("walks depth-first when recursive, and shows dotfiles (never noise) with includeHidden", async () => {
    const recursive = await skills.invoke("files.list", { recursive: true })
    expect(pathsOf(recursive.output)).toEqual([
      "a-folder",
      "a-folder/x.json",
      "b-folder",
      "b-folder/deeper",
      "b-folder/deeper/z.txt",
      "b-folder/inner.md",
      "alpha.txt",
      "Beta.txt",
      "inside-link.txt"
    ])
    const hidden = await skills.invoke("files.list", { recursive: true, includeHidden: true })
    const paths = pathsOf(hidden.output)
    expect(paths).toEqual(expect.arrayContaining([".hidden", ".hidden/h.txt", ".env"]))
    expect(paths.filter((path: string) => /node_modules|\.git|dist|__pycache__|\.cache/.test(path))).toEqual([])
  })

  it("lists a subfolder with paths relative to the root, and stops at maxEntries with truncated", async () => {
    const sub = await skills.invoke("files.list", { path: "b-folder/", recursive: true })
    expect(sub.output).toMatchObject({
      path: "b-folder",
      entries: [{ path: "b-folder/deeper" }, { path: "b-folder/deeper/z.txt" }, { path: "b-folder/inner.md" }]
    })
    const cut = await skills.invoke("files.list", { recursive: true, maxEntries: 3 })
    expect(at(cut.output, "truncated")).toBe(true)
    expect(pathsOf(cut.output)).toEqual(["a-folder", "a-folder/x.json", "b-folder"])
    expect(await skills.invoke("files.list", { maxEntries: 0 })).toMatchObject({
      ok: false,
      error: expect.stringContaining("maxEntries")
    })
    expect(await skills.invoke("files.list", { maxEntries: 5001 })).toMatchObject({ ok: false })
  })

  it("answers an empty root for a being that has written nothing, and plain errors for a missing folder or a file", async () => {
    expect(await skills.invoke("files.list", {}, { beingId: "newcomer" })).toMatchObject({
      ok: true,
      output: { entries: [], truncated: false }
    })
    expect(await skills.invoke("files.list", { path: "nope" })).toMatchObject({
      ok: false,
      error: "nope does not exist."
    })
    expect(await skills.invoke("files.list", { path: "alpha.txt" })).toMatchObject({
      ok: false,
      error: expect.stringContaining("not a folder")
    })
  })
})

describe("files.write and files.read", () => {
  it("round-trips text, reporting created, size and mime, and creates parent folders", async () => {
    const first = await skills.invoke("files.write", { path: "notes/2030/today.md", content: "héllo" })
    expect(first).toMatchObject({
      ok: true,
      output: { path: "notes/2030/today.md", size: 6, created: true, mime: "text/markdown" }
    })
    const again = await skills.invoke("files.write", { path: "notes/2030/today.md", content: "hello" })
    expect(again.output).toMatchObject({ size: 5, created: false })
    const read = await skills.invoke("files.read", { path: "notes/2030/today.md" })
    expect(read.output).toEqual({
      path: "notes/2030/today.md",
      content: "hello",
      encoding: "utf8",
      size: 5,
      mime: "text/markdown",
      truncated: false
    })
  })

  it("appends", async () => {
    await skills.invoke("files.write", { path: "log.txt", content: "one\n" })
    const appended = await skills.invoke("files.write", { path: "log.txt", content: "two\n", append: true })
    expect(appended.output).toMatchObject({ size: 8, created: false })
    expect(at((await skills.invoke("files.read", { path: "log.txt" })).output, "content")).toBe("one\ntwo\n")
    expect(
      at((await skills.invoke("files.write", { path: "fresh.txt", content: "x", append: true })).output, "created")
    ).toBe(true)
  })

  it("round-trips bytes as base64 and refuses content that is not base64", async () => {
    const bytes = Buffer.from([0, 255, 1, 254, 137, 80, 78, 71])
    const written = await skills.invoke("files.write", {
      path: "pic.png",
      content: bytes.toString("base64"),
      encoding: "base64"
    })
    expect(written.output).toMatchObject({ size: 8, mime: "image/png" })
    expect(readFileSync(join(uploads, "pic.png")).equals(bytes)).toBe(true)
    const read = await skills.invoke("files.read", { path: "pic.png", encoding: "base64" })
    expect(read.output).toMatchObject({ content: bytes.toString("base64"), encoding: "base64", size: 8 })
    expect(
      await skills.invoke("files.write", { path: "bad.bin", content: "not*base64", encoding: "base64" })
    ).toMatchObject({
      ok: false,
      error: "content is not valid base64."
    })
  })

  it("cuts a read at maxBytes, never inside a character, and says so", async () => {
    await skills.invoke("files.write", { path: "long.txt", content: "abcé€x" })
    // 9 bytes: a b c, é in two, € in three, x.
    const cut = await skills.invoke("files.read", { path: "long.txt", maxBytes: 4 })
    expect(cut.output).toMatchObject({ content: "abc", size: 9, truncated: true })
    expect(at((await skills.invoke("files.read", { path: "long.txt", maxBytes: 7 })).output, "content")).toBe("abcé")
    expect(at((await skills.invoke("files.read", { path: "long.txt", maxBytes: 8 })).output, "content")).toBe("abcé€")
    expect((await skills.invoke("files.read", { path: "long.txt", maxBytes: 9 })).output).toMatchObject({
      content: "abcé€x",
      truncated: false
    })
  })

  it("reads through a link that stays inside the root, and refuses a folder or the root", async () => {
    expect(at((await skills.invoke("files.read", { path: "inside-link.txt" })).output, "content")).toContain("Needle")
    expect(await skills.invoke("files.read", { path: "a-folder" })).toMatchObject({
      ok: false,
      error: "a-folder is a folder, not a file."
    })
    expect(await skills.invoke("files.read", { path: "" })).toMatchObject({ ok: false })
    expect(await skills.invoke("files.write", { path: "a-folder", content: "x" })).toMatchObject({
      ok: false,
      error: expect.stringContaining("folder")
    })
  })
})

describe("files.search", () => {
  it("finds the lines that contain the query, case-insensitively, skipping noise and dotfiles", async () => {
    const found = await skills.invoke("files.search", { query: "NEEDLE" })
    expect(found.output).toEqual({
      matches: [
        { path: "b-folder/inner.md", line: 2, text: "needle in the inner file" },
        { path: "alpha.txt", line: 2, text: "the Needle is here" },
        { path: "inside-link.txt", line: 2, text: "the Needle is here" }
      ],
      truncated: false
    })
    const scoped = await skills.invoke("files.search", { query: "needle", path: "b-folder", maxResults: 1 })
    expect(scoped.output).toEqual({
      matches: [{ path: "b-folder/inner.md", line: 2, text: "needle in the inner file" }],
      truncated: false
    })
    const cut = await skills.invoke("files.search", { query: "needle", maxResults: 1 })
    expect(at(cut.output, "truncated")).toBe(true)
  })

  it("passes over binary files", async () => {
    await skills.invoke("files.write", {
      path: "blob.bin",
      content: Buffer.from("needle\0binary").toString("base64"),
      encoding: "base64"
    })
    const found = await skills.invoke("files.search", { query: "binary" })
    expect(at(found.output, "matches")).toEqual([])
  })
})

describe("docs.write_markdown", () => {
  it("writes frontmatter, a title heading and the content, and counts the words", async () => {
    const outcome = await skills.invoke("docs.write_markdown", {
      path: "reports/summary",
      title: "Q3: summary",
      content: "Sales grew.\n\nCosts fell.",
      frontmatter: { tags: ["q3", "sales"] }
    })
    expect(outcome).toMatchObject({ ok: true, output: { path: "reports/summary.md", words: 6, created: true } })
    const text = readFileSync(join(uploads, "reports", "summary.md"), "utf8")
    expect(text).toBe(
      '---\ntitle: "Q3: summary"\ntags:\n  - q3\n  - sales\n---\n\n# Q3: summary\n\nSales grew.\n\nCosts fell.\n'
    )
    expect(at(outcome.output, "size")).toBe(Buffer.byteLength(text))
  })

  it("keeps a heading the content already opens with, and refuses a name with another extension", async () => {
    await skills.invoke("docs.write_markdown", { path: "plain.md", title: "Plain", content: "# Own heading\ntext" })
    expect(readFileSync(join(uploads, "plain.md"), "utf8")).toBe("---\ntitle: Plain\n---\n\n# Own heading\ntext\n")
    expect(await skills.invoke("docs.write_markdown", { path: "x.txt", content: "x" })).toMatchObject({
      ok: false,
      error: expect.stringContaining("not a Markdown file name")
    })
  })
})
