/**
 * A PDF as markdown (extensions/files/pdf-markdown.ts): the text layer of a text PDF comes back as
 * it was written, a scanned page goes to the page reader (the ocr tier) once as a PNG, a scan with
 * no reader bound gets a note instead of failing, and bytes that are no PDF are a clear refusal.
 */
import { describe, expect, it } from "@effect/vitest"
import { pdfToMarkdown, PdfUnreadable } from "../../../extensions/files/pdf-markdown.ts"
import { scannedPdf, textPdf } from "../../support/pdfs.ts"

const noReader = () => Promise.resolve(null)
const pngSignature = [0x89, 0x50, 0x4e, 0x47]

describe("pdf to markdown", () => {
  it("returns each page's text layer under a page marker, never calling the reader", async () => {
    const calls: Array<number> = []
    const result = await pdfToMarkdown(
      await textPdf(["Quarterly figures rose.", "The second page."]),
      async (_png, page) => {
        calls.push(page)
        return "should not be used"
      }
    )
    expect(result.markdown).toBe("<!-- page 1 -->\n\nQuarterly figures rose.\n\n<!-- page 2 -->\n\nThe second page.")
    expect(result).toMatchObject({ pages: 2, ocrPages: 0 })
    expect(calls).toEqual([])
  })

  it("sends each page without a text layer to the reader once, as a PNG, and keeps its answer", async () => {
    const calls: Array<{ page: number; head: Array<number> }> = []
    const result = await pdfToMarkdown(await scannedPdf(["Invoice 42", "Paid in full"]), async (png, page) => {
      calls.push({ page, head: [...png.subarray(0, 4)] })
      return `read page ${page}`
    })
    expect(calls).toEqual([
      { page: 1, head: pngSignature },
      { page: 2, head: pngSignature }
    ])
    expect(result.markdown).toBe("<!-- page 1 -->\n\nread page 1\n\n<!-- page 2 -->\n\nread page 2")
    expect(result.ocrPages).toBe(2)
  })

  it("notes a scanned page it could not read when no ocr tier is bound", async () => {
    const result = await pdfToMarkdown(await scannedPdf(["Invoice 42"]), noReader)
    expect(result.markdown).toBe(
      "<!-- page 1 -->\n\n_[Page 1 has no text layer and no ocr model is bound, so it could not be read.]_"
    )
    expect(result.ocrPages).toBe(0)
  })

  it("refuses bytes that are not a PDF, or a broken one, with a clear message", async () => {
    await expect(pdfToMarkdown(new TextEncoder().encode("just words"), noReader)).rejects.toThrow(PdfUnreadable)
    await expect(pdfToMarkdown(new TextEncoder().encode("just words"), noReader)).rejects.toThrow(/not a PDF/)
    const broken = (await textPdf(["whole"])).subarray(0, 200)
    await expect(pdfToMarkdown(broken, noReader)).rejects.toThrow(/could not be parsed/)
  })
})
