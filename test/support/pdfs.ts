/**
 * PDFs the tests make themselves: one with a text layer (pdfkit writes real text), and a "scan":
 * pages holding only a PNG picture of words, as a scanner produces, with no text layer at all.
 */
import { createCanvas } from "@napi-rs/canvas"
import PDFDocument from "pdfkit"

const written = (draw: (document: PDFKit.PDFDocument) => void) =>
  new Promise<Uint8Array>((resolve, reject) => {
    const document = new PDFDocument({ autoFirstPage: false })
    const parts: Array<Buffer> = []
    document.on("data", (part: Buffer) => parts.push(part))
    document.on("end", () => resolve(new Uint8Array(Buffer.concat(parts))))
    document.on("error", reject)
    draw(document)
    document.end()
  })

/** One page per string, each holding it as text. */
export const textPdf = (pages: ReadonlyArray<string>) =>
  written((document) => {
    for (const text of pages) document.addPage().text(text)
  })

/** A PNG of black words on white. */
export const pictureOfWords = (words: string) => {
  const canvas = createCanvas(600, 120)
  const context = canvas.getContext("2d")
  context.fillStyle = "white"
  context.fillRect(0, 0, canvas.width, canvas.height)
  context.fillStyle = "black"
  context.font = "40px sans-serif"
  context.fillText(words, 20, 70)
  return canvas.toBuffer("image/png")
}

/** One page per string, each holding only a picture of it. */
export const scannedPdf = (pages: ReadonlyArray<string>) =>
  written((document) => {
    for (const words of pages) document.addPage().image(pictureOfWords(words), 20, 20, { width: 500 })
  })
