/**
 * A PDF as markdown (the files feature's PdfReader, extensions/files/pdf-markdown.ts): the text
 * layer of a text PDF comes back as it was written, a scanned page goes to the page reader (the ocr
 * tier, an Effect) once as a PNG, a scan with no reader bound gets a note instead of failing, and
 * bytes that are no PDF are a clear refusal.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { PdfReader } from "../../../extensions/files/contract/pdf-reader.ts"
import { PdfReaderLive } from "../../../extensions/files/pdf-markdown.ts"
import { scannedPdf, textPdf } from "../../support/pdfs.ts"

const noReader = () => Effect.succeed(null)
const pngSignature = [0x89, 0x50, 0x4e, 0x47]

describe("pdf to markdown", () => {
  it.layer(PdfReaderLive)((it) => {
    it.effect("returns each page's text layer under a page marker, never calling the reader", () =>
      Effect.gen(function* () {
        const calls: Array<number> = []
        const bytes = yield* Effect.promise(() => textPdf(["Quarterly figures rose.", "The second page."]))
        const result = yield* (yield* PdfReader).toMarkdown(bytes, (_png, page) =>
          Effect.sync(() => {
            calls.push(page)
            return "should not be used"
          })
        )
        expect(result.markdown).toBe(
          "<!-- page 1 -->\n\nQuarterly figures rose.\n\n<!-- page 2 -->\n\nThe second page."
        )
        expect(result).toMatchObject({ pages: 2, ocrPages: 0 })
        expect(calls).toEqual([])
      })
    )

    it.effect("sends each page without a text layer to the reader once, as a PNG, and keeps its answer", () =>
      Effect.gen(function* () {
        const calls: Array<{ page: number; head: Array<number> }> = []
        const bytes = yield* Effect.promise(() => scannedPdf(["Invoice 42", "Paid in full"]))
        const result = yield* (yield* PdfReader).toMarkdown(bytes, (png, page) =>
          Effect.sync(() => {
            calls.push({ page, head: [...png.subarray(0, 4)] })
            return `read page ${page}`
          })
        )
        expect(calls).toEqual([
          { page: 1, head: pngSignature },
          { page: 2, head: pngSignature }
        ])
        expect(result.markdown).toBe("<!-- page 1 -->\n\nread page 1\n\n<!-- page 2 -->\n\nread page 2")
        expect(result.ocrPages).toBe(2)
      })
    )

    it.effect("notes a scanned page it could not read when no ocr tier is bound", () =>
      Effect.gen(function* () {
        const result = yield* (yield* PdfReader).toMarkdown(
          yield* Effect.promise(() => scannedPdf(["Invoice 42"])),
          noReader
        )
        expect(result.markdown).toBe(
          "<!-- page 1 -->\n\n_[Page 1 has no text layer and no ocr model is bound, so it could not be read.]_"
        )
        expect(result.ocrPages).toBe(0)
      })
    )

    it.effect("refuses bytes that are not a PDF, or a broken one, with a clear message", () =>
      Effect.gen(function* () {
        const reader = yield* PdfReader
        const notPdf = yield* Effect.flip(reader.toMarkdown(new TextEncoder().encode("just words"), noReader))
        expect(notPdf._tag).toBe("PdfUnreadable")
        expect(notPdf.message).toMatch(/not a PDF/)
        const broken = (yield* Effect.promise(() => textPdf(["whole"]))).subarray(0, 200)
        const unparsed = yield* Effect.flip(reader.toMarkdown(broken, noReader))
        expect(unparsed._tag).toBe("PdfUnreadable")
        expect(unparsed.message).toMatch(/could not be parsed/)
      })
    )
  })
})
