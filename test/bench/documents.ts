/**
 * docs.write_docx and docs.write_pdf on a 20-page document (issue 11): time and size of each,
 * beside the floor of the same Markdown turned into HTML by marked (parsing and writing text,
 * no layout). The document: headings, paragraphs with bold, italic, code and links, bullet and
 * numbered lists, a table and a code block per section, and one 640×360 PNG from the workspace.
 * The PDF's page count is checked to be about 20. Times are medians of 7 runs after 2 warm-ups.
 * `node test/bench/documents.ts` runs it alone.
 */
import { marked } from "marked"
import { imagesOf, markdownTree } from "../../extensions/docs/markdown-tree.ts"
import { renderDocx } from "../../extensions/docs/render-docx.ts"
import { renderPdf } from "../../extensions/docs/render-pdf.ts"
import type { LoadedImage } from "../../extensions/docs/workspace-images.ts"
import { solidPng } from "../support/png.ts"

const sections = 24
const runs = 7
const warmUps = 2

const paragraph = (n: number) =>
  `Paragraph ${n} weighs the **quarterly figures** against the *forecast*, with \`inline code\` and a [source](https://example.org/${n}). ` +
  "The regions moved apart this quarter: the north grew on new accounts while the south held its existing ones, and the gap ".repeat(
    2
  )

const section = (n: number) => `## Section ${n}

${paragraph(n * 10 + 1)}

${paragraph(n * 10 + 2)}

- First point of section ${n}
- Second point, a longer one that wraps onto a second line when the page is narrow enough to need it
  - A nested remark
- Third point

1. Step one
2. Step two
3. Step three

| Region | Q1 | Q2 | Q3 | Q4 |
|:-------|---:|---:|---:|---:|
${Array.from({ length: 8 }, (_, row) => `| Region ${row + 1} | ${row * 100 + n} | ${row * 110 + n} | ${row * 120 + n} | ${row * 130 + n} |`).join("\n")}

\`\`\`ts
const total = regions.reduce((sum, region) => sum + region.q${(n % 4) + 1}, 0)
console.log(\`Section ${n}: \${total}\`)
\`\`\`

${paragraph(n * 10 + 3)}
${n === 1 ? "\n![A chart](charts/figure.png)\n" : ""}
> A remark to close section ${n}.
`

const markdown = `# A Twenty-Page Report\n\n${Array.from({ length: sections }, (_, n) => section(n + 1)).join("\n")}`
const png = solidPng(640, 360)
const images: ReadonlyMap<string, LoadedImage> = new Map([
  ["charts/figure.png", { data: png, type: "png", width: 640, height: 360 }]
])

const median = (values: ReadonlyArray<number>) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

const timed = async <A>(work: () => Promise<A>) => {
  for (let i = 0; i < warmUps; i++) await work()
  const times: Array<number> = []
  let last: A | undefined
  for (let i = 0; i < runs; i++) {
    const started = performance.now()
    last = await work()
    times.push(performance.now() - started)
  }
  return { ms: median(times), last: last! }
}

export const benchDocuments = async () => {
  const floor = await timed(async () => marked.parse(markdown, { async: false }))
  const pdf = await timed(async () => {
    const blocks = markdownTree(markdown)
    imagesOf(blocks)
    return renderPdf(blocks, images, "A Twenty-Page Report")
  })
  const docx = await timed(async () => renderDocx(markdownTree(markdown), images, "A Twenty-Page Report"))
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`
  console.log(
    `document: ${(markdown.length / 1024).toFixed(0)} KB of Markdown, ${sections} sections, one 640×360 PNG; the PDF has ${pdf.last.pages} pages`
  )
  console.log(`  floor, marked → HTML:     ${floor.ms.toFixed(1)} ms`)
  console.log(
    `  docs.write_pdf pipeline:  ${pdf.ms.toFixed(1)} ms (${(pdf.ms / floor.ms).toFixed(0)}× the floor), ${kb(pdf.last.bytes.length)}`
  )
  console.log(
    `  docs.write_docx pipeline: ${docx.ms.toFixed(1)} ms (${(docx.ms / floor.ms).toFixed(0)}× the floor), ${kb(docx.last.length)}`
  )
}

if (import.meta.main) await benchDocuments()
