/**
 * docs.write_docx and docs.write_pdf from one Markdown pipeline, checked as a reader would open
 * them: the PDF's text through pdftotext and its images through pdfimages; the DOCX opened by
 * LibreOffice (headless, converted to PDF) and read the same way, plus its XML for the structure
 * Word sees (heading styles, numbering, a table, a hyperlink, the embedded picture).
 */
import { execFileSync } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startSkills, type SkillHarness } from "../../support/skills.ts"
import { solidPng } from "../../support/png.ts"

const markdown = `# Quarterly Report

Intro with **bold words**, *slanted words*, \`inline code\` and a [link to the site](https://example.org/report).

## Findings

- First finding
- Second finding
  - A nested point
- [x] A done task

3. Third step
4. Fourth step

| Region | Revenue |
|:-------|--------:|
| North  | 1200    |
| South  | 800     |

\`\`\`ts
const total = north + south
\`\`\`

> A quoted remark.

![Sales chart](charts/sales.png)

---

Closing line.
`

let skills: SkillHarness
let uploads: string
let scratch: string

beforeAll(async () => {
  skills = await startSkills()
  uploads = join(skills.dataDir, "uploads", "ada")
  mkdirSync(join(uploads, "charts"), { recursive: true })
  writeFileSync(join(uploads, "charts", "sales.png"), solidPng(320, 160))
  writeFileSync(join(uploads, "notes.txt"), "not a picture")
  writeFileSync(join(skills.dataDir, "outside.png"), solidPng(4, 4))
  scratch = mkdtempSync(join(tmpdir(), "docs-check-"))
})
afterAll(async () => {
  await skills.close()
  rmSync(scratch, { recursive: true, force: true })
})

const pdfText = (file: string) => execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" })
const pdfImages = (file: string) =>
  execFileSync("pdfimages", ["-list", file], { encoding: "utf8" }).trim().split("\n").slice(2)

/** LibreOffice opens the DOCX and prints it to PDF: what a person opening it would see. */
const libreOfficeToPdf = (file: string) => {
  const profile = join(scratch, "profile")
  execFileSync(
    "soffice",
    [`-env:UserInstallation=file://${profile}`, "--headless", "--convert-to", "pdf", "--outdir", scratch, file],
    {
      stdio: "pipe",
      timeout: 120_000
    }
  )
  const converted = join(
    scratch,
    file
      .split("/")
      .at(-1)!
      .replace(/\.docx$/, ".pdf")
  )
  expect(existsSync(converted)).toBe(true)
  return converted
}

const expectReport = (text: string) => {
  for (const words of [
    "Quarterly Report",
    "bold words",
    "inline code",
    "link to the site",
    "Findings",
    "First finding",
    "A nested point",
    "Third step",
    "Fourth step",
    "Region",
    "Revenue",
    "North",
    "1200",
    "const total = north + south",
    "A quoted remark.",
    "Closing line."
  ]) {
    expect(text, words).toContain(words)
  }
}

describe("docs.write_pdf", () => {
  it("writes a PDF whose text pdftotext reads, with the workspace image embedded and the link kept", async () => {
    const outcome = await skills.invoke("docs.write_pdf", { path: "out/report", content: markdown })
    expect(outcome).toMatchObject({
      ok: true,
      output: { path: "out/report.pdf", created: true, mime: "application/pdf", images: 1, pages: 1 }
    })
    const file = join(uploads, "out", "report.pdf")
    const text = pdfText(file)
    expectReport(text)
    expect(text).toMatch(/3\.\s+Third step/)
    expect(text).toMatch(/•\s+First finding/)
    expect(pdfImages(file)).toHaveLength(1)
    expect(pdfImages(file)[0]).toMatch(/\s320\s+160\s/)
    expect(readFileSync(file, "latin1")).toContain("(https://example.org/report)")
  })

  it("runs to many pages for a long document, titled as asked", async () => {
    const long = Array.from(
      { length: 120 },
      (_, n) => `## Section ${n + 1}\n\nParagraph ${n + 1} says something worth reading.`
    ).join("\n\n")
    const outcome = await skills.invoke("docs.write_pdf", { path: "long.pdf", title: "A Long One", content: long })
    expect(outcome).toMatchObject({ ok: true, output: { path: "long.pdf" } })
    const pages = Number((outcome.output as { pages: number }).pages)
    expect(pages).toBeGreaterThan(5)
    const text = pdfText(join(uploads, "long.pdf"))
    expect(text).toContain("A Long One")
    expect(text).toContain("Section 120")
    const info = execFileSync("pdfinfo", [join(uploads, "long.pdf")], { encoding: "utf8" })
    expect(info).toMatch(new RegExp(`Pages:\\s+${pages}\\n`))
    expect(info).toMatch(/Title:\s+A Long One/)
  })
})

describe("docs.write_docx", () => {
  it("writes a DOCX that LibreOffice opens, with Word's structures inside", async () => {
    const outcome = await skills.invoke("docs.write_docx", { path: "out/report.docx", title: "Q3", content: markdown })
    expect(outcome).toMatchObject({
      ok: true,
      output: {
        path: "out/report.docx",
        created: true,
        mime: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        images: 1
      }
    })
    const file = join(uploads, "out", "report.docx")
    const converted = libreOfficeToPdf(file)
    expectReport(pdfText(converted))
    expect(pdfImages(converted)).toHaveLength(1)

    const xml = execFileSync("unzip", ["-p", file, "word/document.xml"], { encoding: "utf8" })
    expect(xml).toContain('w:pStyle w:val="Heading1"')
    expect(xml).toContain('w:pStyle w:val="Heading2"')
    expect(xml).toContain("<w:numPr>")
    expect(xml).toContain("<w:tbl>")
    expect(xml).toContain("<w:hyperlink")
    expect(xml).toContain("<wp:inline")
    expect(execFileSync("unzip", ["-p", file, "word/_rels/document.xml.rels"], { encoding: "utf8" })).toContain(
      'Target="https://example.org/report"'
    )
  }, 150_000)
})

describe("refusals", () => {
  it("refuses an image outside the root, a missing one and a file that is not an image, writing nothing", async () => {
    const cases = [
      ["![x](../../outside.png)", "climbs out"],
      ["![x](charts/none.png)", "none.png"],
      ["![x](notes.txt)", "not an image"]
    ] as const
    for (const [content, words] of cases) {
      for (const skill of ["docs.write_pdf", "docs.write_docx"]) {
        const outcome = await skills.invoke(skill, { path: "refused", content })
        expect(outcome, `${skill} ${content}`).toMatchObject({ ok: false, error: expect.stringContaining(words) })
      }
    }
    expect(existsSync(join(uploads, "refused.pdf"))).toBe(false)
    expect(existsSync(join(uploads, "refused.docx"))).toBe(false)
  })

  it("refuses another extension and a path out of the root", async () => {
    expect(await skills.invoke("docs.write_pdf", { path: "report.docx", content: "x" })).toMatchObject({
      ok: false,
      error: expect.stringContaining("not a .pdf")
    })
    expect(await skills.invoke("docs.write_docx", { path: "../../escape.docx", content: "x" })).toMatchObject({
      ok: false,
      error: expect.stringContaining("climbs out")
    })
  })

  it("keeps a remote image as its words, fetching nothing", async () => {
    const outcome = await skills.invoke("docs.write_pdf", {
      path: "remote.pdf",
      content: "![Logo](https://example.org/logo.png)"
    })
    expect(outcome).toMatchObject({ ok: true, output: { images: 0 } })
    expect(pdfText(join(uploads, "remote.pdf"))).toContain("[image: Logo (https://example.org/logo.png)]")
  })
})

describe("the listing", () => {
  it("publishes both in the docs family with their schemas", async () => {
    const listed = await skills.list()
    for (const name of ["docs.write_docx", "docs.write_pdf"]) {
      expect(
        listed.find((skill) => skill.name === name),
        name
      ).toMatchObject({
        family: "docs",
        worldActing: false,
        inputSchema: { required: ["path", "content"] },
        outputSchema: { required: expect.arrayContaining(["path", "size", "images"]) }
      })
    }
  })
})
