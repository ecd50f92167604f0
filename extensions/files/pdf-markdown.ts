/**
 * The PdfReader of the files feature's contract (contract/pdf-reader.ts) over pdf.js: each page's
 * text layer, or for a page without one (a scan) its rendering as a PNG, read by the caller's
 * `readPageImage` (an Effect, run in the same fiber: a reader interrupted stops between pages).
 */
import type * as Canvas from "@napi-rs/canvas"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { lazyModule } from "../../kernel/lazy-module.ts"
import {
  isPdf,
  MAX_OCR_PAGES,
  MAX_PDF_BYTES,
  MAX_PDF_PAGES,
  PdfReader,
  PdfUnreadable,
  type PdfMarkdown,
  type ReadPageImage
} from "./contract/pdf-reader.ts"

// Skia and the system's fonts it scans: about 10 MB resident, for scanned pages only.
const canvasModule = lazyModule<typeof Canvas>("@napi-rs/canvas")

/** The longest side of a rendered page in pixels: legible to a vision model, a bounded image. */
const renderLongSide = 1600

// pdfjs loads the 14 standard faces from files; without them it warns on every text PDF.
const standardFontDataUrl = join(
  dirname(createRequire(import.meta.url).resolve("pdfjs-dist/package.json")),
  "standard_fonts/"
)

type Pdfjs = typeof import("pdfjs-dist/legacy/build/pdf.mjs")
let pdfjs: Promise<Pdfjs> | undefined
// Loaded on the first PDF: most node starts never read one.
const loadPdfjs = () => (pdfjs ??= import("pdfjs-dist/legacy/build/pdf.mjs"))

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
  const canvas = canvasModule().createCanvas(Math.ceil(viewport.width), Math.ceil(viewport.height))
  const context = canvas.getContext("2d")
  // A scan's transparent areas read as black to some models: paint the paper white first.
  context.fillStyle = "white"
  context.fillRect(0, 0, canvas.width, canvas.height)
  await page.render({ canvas: canvas as never, canvasContext: context as never, viewport }).promise
  return new Uint8Array(canvas.toBuffer("image/png"))
}

const unreadableNote = (page: number, why: string) => `_[Page ${page} has no text layer and ${why}.]_`

/** One pdf.js call; a failure of the parser past opening the PDF is unexpected, and kept as its cause. */
const pdfjsCall = <A>(call: () => Promise<A>) => Effect.tryPromise(call)

const toMarkdown = <E>(bytes: Uint8Array, readPageImage: ReadPageImage<E>) =>
  Effect.gen(function* () {
    if (bytes.length > MAX_PDF_BYTES)
      return yield* new PdfUnreadable({
        message: `The PDF is ${bytes.length} bytes; at most ${MAX_PDF_BYTES} are parsed.`
      })
    if (!isPdf(bytes))
      return yield* new PdfUnreadable({ message: "The file is not a PDF: it does not start with %PDF-." })
    const { getDocument } = yield* Effect.promise(loadPdfjs)
    return yield* Effect.acquireUseRelease(
      // pdfjs takes the buffer over (detaches it): hand it a copy so the caller's bytes stay whole.
      Effect.sync(() => getDocument({ data: bytes.slice(), standardFontDataUrl, verbosity: 0 })),
      (task) =>
        Effect.gen(function* () {
          const document = yield* Effect.tryPromise({
            try: () => task.promise,
            catch: (error) =>
              new PdfUnreadable({
                message: `The PDF could not be parsed: ${error instanceof Error ? error.message : String(error)}.`
              })
          })
          const total = document.numPages
          const parts: Array<string> = []
          let ocrPages = 0
          for (let number = 1; number <= Math.min(total, MAX_PDF_PAGES); number++) {
            const page = yield* pdfjsCall(() => document.getPage(number))
            const text = yield* Effect.gen(function* () {
              const text = yield* pdfjsCall(() => textOf(page))
              if (text !== "") return text
              if (ocrPages >= MAX_OCR_PAGES)
                return unreadableNote(number, `this PDF passed the ${MAX_OCR_PAGES} pages read by image`)
              const read = yield* readPageImage(yield* pdfjsCall(() => renderPng(page)), number)
              if (read === null) return unreadableNote(number, "no ocr model is bound, so it could not be read")
              ocrPages++
              return read.trim()
            }).pipe(Effect.ensuring(Effect.sync(() => page.cleanup())))
            parts.push(`<!-- page ${number} -->\n\n${text}`)
          }
          if (total > MAX_PDF_PAGES)
            parts.push(`_[Pages ${MAX_PDF_PAGES + 1} to ${total} were not read: at most ${MAX_PDF_PAGES} pages are.]_`)
          return { markdown: parts.join("\n\n"), pages: total, ocrPages } satisfies PdfMarkdown
        }),
      (task) => Effect.promise(() => task.destroy())
    )
  })

export const PdfReaderLive = Layer.succeed(PdfReader, PdfReader.of({ toMarkdown }))
