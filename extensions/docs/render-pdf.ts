/**
 * The document tree as a PDF, through pdfkit: A4, the standard Helvetica and Courier faces (no
 * font files to ship; they cover Western European text, the WinAnsi set), headings by size, lists
 * indented by depth, tables ruled with a shaded header row that starts a new page rather than
 * split a row, code shaded line by line, links as link annotations, the workspace's images scaled
 * to fit the text width and the page.
 */
import PDFDocument from "pdfkit"
import type { Align, Block, Run } from "./markdown-tree.ts"
import { isRemote, type LoadedImage } from "./workspace-images.ts"

type Pdf = InstanceType<typeof PDFDocument>

const bodySize = 11
const headingSizes = [22, 18, 15, 13, 12, 11] as const
const indentStep = 18
const cellPad = 4

const fontOf = (run: Pick<Run, "bold" | "italic" | "code">) =>
  run.code
    ? "Courier"
    : run.bold && run.italic
      ? "Helvetica-BoldOblique"
      : run.bold
        ? "Helvetica-Bold"
        : run.italic
          ? "Helvetica-Oblique"
          : "Helvetica"

/** Characters the standard faces cannot draw become their nearest WinAnsi stand-ins (or '?'), never garbage. */
const drawable = (text: string) =>
  text
    .replace(/[☑✓✔]/g, "[x]")
    .replace(/[☐]/g, "[ ]")
    .replace(/[\u2000-\u200b\u202f]/g, " ")
    .replace(/[‐‑‒]/g, "-")
    .replace(/[^\n\t\x20-\x7e\xa0-\xff€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ]/g, "?")

const pageBottom = (doc: Pdf) => doc.page.height - doc.page.margins.bottom
const textLeft = (doc: Pdf) => doc.page.margins.left
const textWidth = (doc: Pdf) => doc.page.width - doc.page.margins.left - doc.page.margins.right

/** Starts a new page unless `height` still fits on this one. */
const room = (doc: Pdf, height: number) => {
  if (doc.y + height > pageBottom(doc)) doc.addPage()
}

/** A line of runs from (x, the current y), wrapping at `width`: each run its face, links underlined in blue. */
const writeRuns = (
  doc: Pdf,
  runs: ReadonlyArray<Run>,
  x: number,
  width: number,
  size: number,
  style: Partial<Run> = {},
  align: Align = null
) => {
  const shown = runs.filter((run) => run.text !== "")
  if (shown.length === 0) return
  shown.forEach((run, index) => {
    const styled = {
      ...run,
      ...style,
      bold: run.bold || style.bold === true,
      italic: run.italic || style.italic === true
    }
    doc
      .font(fontOf(styled))
      .fontSize(run.code ? size - 1 : size)
      .fillColor(run.link === null ? "#111111" : "#1a55c4")
    const options = {
      continued: index < shown.length - 1,
      link: run.link,
      underline: run.link !== null,
      strike: run.strike,
      width,
      align: align ?? "left"
    }
    if (index === 0) doc.text(drawable(run.text), x, doc.y, options)
    else doc.text(drawable(run.text), options)
  })
  doc.fillColor("#111111")
}

const plainHeight = (doc: Pdf, runs: ReadonlyArray<Run>, width: number, size: number, bold: boolean) =>
  doc
    .font(bold ? "Helvetica-Bold" : "Helvetica")
    .fontSize(size)
    .heightOfString(drawable(runs.map((run) => run.text).join("")) || " ", { width })

const renderer = (doc: Pdf, images: ReadonlyMap<string, LoadedImage>) => {
  const image = (src: string, alt: string, x: number, width: number) => {
    const loaded = images.get(src)
    if (loaded === undefined || isRemote(src)) {
      const label = alt === "" ? src : `${alt} (${src})`
      doc
        .font("Helvetica-Oblique")
        .fontSize(bodySize)
        .text(drawable(`[image: ${label}]`), x, doc.y, { width })
      return
    }
    const maxHeight = pageBottom(doc) - doc.page.margins.top
    const scale = Math.min(1, width / loaded.width, maxHeight / loaded.height)
    const height = loaded.height * scale
    room(doc, height)
    doc.image(Buffer.from(loaded.data), x, doc.y, { width: loaded.width * scale, height })
    doc.y += height
  }

  const table = (block: Extract<Block, { kind: "table" }>, x: number, width: number) => {
    const columns = Math.max(1, block.header.length)
    const columnWidth = width / columns
    const row = (cells: ReadonlyArray<ReadonlyArray<Run>>, header: boolean) => {
      const height =
        Math.max(...cells.map((runs) => plainHeight(doc, runs, columnWidth - 2 * cellPad, bodySize - 1, header))) +
        2 * cellPad
      room(doc, height)
      const top = doc.y
      if (header) doc.rect(x, top, width, height).fill("#ededed")
      cells.forEach((runs, column) => {
        const left = x + column * columnWidth
        doc.lineWidth(0.5).rect(left, top, columnWidth, height).stroke("#999999")
        doc.y = top + cellPad
        writeRuns(
          doc,
          runs,
          left + cellPad,
          columnWidth - 2 * cellPad,
          bodySize - 1,
          header ? { bold: true } : {},
          block.align[column] ?? null
        )
      })
      doc.x = x
      doc.y = top + height
    }
    row(block.header, true)
    for (const cells of block.rows) row(cells, false)
    doc.moveDown(0.5)
  }

  const code = (text: string, x: number, width: number) => {
    doc.moveDown(0.2)
    doc.font("Courier").fontSize(bodySize - 2)
    for (const line of text.split("\n")) {
      const shown = drawable(line) || " "
      const height = doc.heightOfString(shown, { width: width - 2 * cellPad })
      room(doc, height)
      const top = doc.y
      doc.rect(x, top, width, height).fill("#f3f3f3")
      doc.fillColor("#111111").text(shown, x + cellPad, top, { width: width - 2 * cellPad })
    }
    doc.moveDown(0.5)
  }

  const render = (blocks: ReadonlyArray<Block>, depth: number, quoted: boolean): void => {
    const x = textLeft(doc) + depth * indentStep
    const width = textWidth(doc) - depth * indentStep
    const style = quoted ? { italic: true } : {}
    for (const block of blocks) {
      switch (block.kind) {
        case "heading": {
          const size = headingSizes[block.depth - 1]
          doc.moveDown(0.4)
          room(doc, size * 3)
          writeRuns(doc, block.runs, x, width, size, { bold: true })
          doc.moveDown(0.3)
          break
        }
        case "paragraph":
          writeRuns(doc, block.runs, x, width, bodySize, style)
          doc.moveDown(0.5)
          break
        case "code":
          code(block.text, x, width)
          break
        case "quote":
          render(block.blocks, depth + 1, true)
          break
        case "rule": {
          room(doc, 12)
          const y = doc.y + 4
          doc
            .lineWidth(0.75)
            .moveTo(x, y)
            .lineTo(x + width, y)
            .stroke("#999999")
          doc.y = y + 8
          break
        }
        case "image":
          image(block.src, block.alt, x, width)
          doc.moveDown(0.5)
          break
        case "table":
          table(block, x, width)
          break
        case "list":
          block.items.forEach((item, index) => {
            const marker =
              (block.ordered ? `${block.start + index}.` : "•") +
              (item.checked === null ? "" : item.checked ? " [x]" : " [ ]")
            const [first, ...rest] = item.blocks
            room(doc, bodySize * 1.5)
            const top = doc.y
            doc
              .font("Helvetica")
              .fontSize(bodySize)
              .fillColor("#111111")
              .text(marker, x, top, { width: indentStep * 2, lineBreak: false })
            doc.y = top
            const markerWidth = Math.max(indentStep, doc.widthOfString(marker) + 6)
            if (first?.kind === "paragraph")
              writeRuns(doc, first.runs, x + markerWidth, width - markerWidth, bodySize, style)
            else doc.moveDown(1)
            doc.moveDown(0.2)
            render(first?.kind === "paragraph" ? rest : item.blocks, depth + 1, quoted)
          })
          doc.moveDown(0.3)
          break
      }
      doc.x = textLeft(doc)
    }
  }
  return render
}

/** The PDF's bytes and how many pages it has. */
export const renderPdf = (blocks: ReadonlyArray<Block>, images: ReadonlyMap<string, LoadedImage>, title: string) =>
  new Promise<{ readonly bytes: Uint8Array; readonly pages: number }>((resolve, reject) => {
    const doc = new PDFDocument({ size: "A4", margin: 56, info: { Title: title, Creator: "svc" } })
    const chunks: Array<Buffer> = []
    let pages = 1
    doc.on("pageAdded", () => {
      pages += 1
    })
    doc.on("data", (chunk: Buffer) => chunks.push(chunk))
    doc.on("end", () => resolve({ bytes: new Uint8Array(Buffer.concat(chunks)), pages }))
    doc.on("error", reject)
    try {
      renderer(doc, images)(blocks, 0, false)
      doc.end()
    } catch (error) {
      reject(error)
    }
  })
