/**
 * A PDF as markdown: the one parser files.read, the twin's file indexing and thread attachments
 * share. Each page's text layer comes through pdfjs; a page without one (a scan) is rendered to a
 * PNG and handed to `readImage` (the `ocr` tier, a file-parser step before any model reads the
 * file). Pages are joined under a `<!-- page N -->` marker. The work is bounded (pages, pages read
 * by image, bytes) and a PDF pdfjs cannot open is a PdfUnreadable with a plain message, never a crash.
 */
import { createCanvas } from "@napi-rs/canvas"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"

/** The most pages turned into markdown; the rest are named in a closing note. */
export const MAX_PDF_PAGES = 200
/** The most text-less pages of one PDF sent to the ocr tier (each is a model call). */
export const MAX_OCR_PAGES = 20
/** The largest PDF parsed. */
export const MAX_PDF_BYTES = 20 * 1024 * 1024
/** The longest side of a rendered page in pixels: legible to a vision model, a bounded image. */
const renderLongSide = 1600

/** Reads a page image; null when no ocr tier is bound (the page gets a note instead). */
export type ReadPageImage = (png: Uint8Array, page: number) => Promise<string | null>

export class PdfUnreadable extends Error {
  readonly _tag = "PdfUnreadable"
}

export type PdfMarkdown = {
  readonly markdown: string
  readonly pages: number
  /** Pages read through the ocr tier. */
  readonly ocrPages: number
}

// pdfjs loads the 14 standard faces from files; without them it warns on every text PDF.
const standardFontDataUrl = join(
  dirname(createRequire(import.meta.url).resolve("pdfjs-dist/package.json")),
  "standard_fonts/"
)

type Pdfjs = typeof import("pdfjs-dist/legacy/build/pdf.mjs")
let pdfjs: Promise<Pdfjs> | undefined
// Loaded on the first PDF: most node starts never read one.
const loadPdfjs = () => (pdfjs ??= import("pdfjs-dist/legacy/build/pdf.mjs"))

export const isPdf = (bytes: Uint8Array) =>
  bytes.length >= 5 &&
  bytes[0] === 0x25 &&
  bytes[1] === 0x50 &&
  bytes[2] === 0x44 &&
  bytes[3] === 0x46 &&
  bytes[4] === 0x2d

type PdfPage = Awaited<ReturnType<Awaited<ReturnType<Pdfjs["getDocument"]>["promise"]>["getPage"]>>

/** A page's text layer, lines kept where the PDF ends them. */
const textOf = async (page: PdfPage) => {
  const content = await page.getTextContent()
  let text = ""
  for (const item of content.items) {
    if ("str" in item) text += item.str + (item.hasEOL ? "\n" : "")
  }
  return text.replace(/[ \t]+\n/g, "\n").trim()
}

const renderPng = async (page: PdfPage) => {
  const base = page.getViewport({ scale: 1 })
  const scale = renderLongSide / Math.max(base.width, base.height, 1)
  const viewport = page.getViewport({ scale })
  const canvas = createCanvas(Math.ceil(viewport.width), Math.ceil(viewport.height))
  const context = canvas.getContext("2d")
  // A scan's transparent areas read as black to some models: paint the paper white first.
  context.fillStyle = "white"
  context.fillRect(0, 0, canvas.width, canvas.height)
  await page.render({ canvas: canvas as never, canvasContext: context as never, viewport }).promise
  return new Uint8Array(canvas.toBuffer("image/png"))
}

const unreadableNote = (page: number, why: string) => `_[Page ${page} has no text layer and ${why}.]_`

export const pdfToMarkdown = async (bytes: Uint8Array, readImage: ReadPageImage): Promise<PdfMarkdown> => {
  if (bytes.length > MAX_PDF_BYTES)
    throw new PdfUnreadable(`The PDF is ${bytes.length} bytes; at most ${MAX_PDF_BYTES} are parsed.`)
  if (!isPdf(bytes)) throw new PdfUnreadable("The file is not a PDF: it does not start with %PDF-.")
  const { getDocument } = await loadPdfjs()
  // pdfjs takes the buffer over (detaches it): hand it a copy so the caller's bytes stay whole.
  const task = getDocument({ data: bytes.slice(), standardFontDataUrl, verbosity: 0 })
  try {
    const document = await task.promise.catch((error: unknown) => {
      throw new PdfUnreadable(`The PDF could not be parsed: ${error instanceof Error ? error.message : String(error)}.`)
    })
    const total = document.numPages
    const parts: Array<string> = []
    let ocrPages = 0
    for (let number = 1; number <= Math.min(total, MAX_PDF_PAGES); number++) {
      const page = await document.getPage(number)
      try {
        let text = await textOf(page)
        if (text === "") {
          if (ocrPages >= MAX_OCR_PAGES) {
            text = unreadableNote(number, `this PDF passed the ${MAX_OCR_PAGES} pages read by image`)
          } else {
            const read = await readImage(await renderPng(page), number)
            if (read === null) text = unreadableNote(number, "no ocr model is bound, so it could not be read")
            else {
              ocrPages++
              text = read.trim()
            }
          }
        }
        parts.push(`<!-- page ${number} -->\n\n${text}`)
      } finally {
        page.cleanup()
      }
    }
    if (total > MAX_PDF_PAGES)
      parts.push(`_[Pages ${MAX_PDF_PAGES + 1} to ${total} were not read: at most ${MAX_PDF_PAGES} pages are.]_`)
    return { markdown: parts.join("\n\n"), pages: total, ocrPages }
  } finally {
    await task.destroy()
  }
}
