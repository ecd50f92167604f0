/**
 * A PDF read as markdown, per page (issue 17): a 20-page text PDF through the PdfReader beside
 * the anchor, PDF.js's bare text extraction of the same file (getTextContent on every page); and
 * a 5-page scan, each page rendered to a PNG for a reader that answers at once, so the figure is
 * our part of an ocr read (the model's own time comes on top). Medians of 5 runs after 2 warm-ups.
 * `node test/bench/pdf.ts` runs it alone.
 */
import { getDocument } from "pdfjs-dist/legacy/build/pdf.mjs"
import * as Effect from "effect/Effect"
import { PdfReader } from "../../extensions/files/contract/pdf-reader.ts"
import { PdfReaderLive } from "../../extensions/files/pdf-markdown.ts"
import { scannedPdf, textPdf } from "../support/pdfs.ts"

const runs = 5
const warmUps = 2
const median = (values: ReadonlyArray<number>) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

const timed = async (work: () => Promise<unknown>) => {
  for (let i = 0; i < warmUps; i++) await work()
  const times: Array<number> = []
  for (let i = 0; i < runs; i++) {
    const started = performance.now()
    await work()
    times.push(performance.now() - started)
  }
  return median(times)
}

const bareText = async (bytes: Uint8Array) => {
  const task = getDocument({ data: bytes.slice(), verbosity: 0 })
  const document = await task.promise
  for (let number = 1; number <= document.numPages; number++) await (await document.getPage(number)).getTextContent()
  await task.destroy()
}

export const benchPdf = async () => {
  const words =
    "The regions moved apart this quarter: the north grew on new accounts while the south held its existing ones. ".repeat(
      20
    )
  const text = await textPdf(Array.from({ length: 20 }, (_, page) => `Page ${page + 1}. ${words}`))
  const scan = await scannedPdf(Array.from({ length: 5 }, (_, page) => `Scanned page ${page + 1}`))
  const anchor = await timed(() => bareText(text))
  const { toMarkdown } = Effect.runSync(Effect.provide(PdfReader, PdfReaderLive))
  const ours = await timed(() => Effect.runPromise(toMarkdown(text, () => Effect.succeed(null))))
  const scanned = await timed(() => Effect.runPromise(toMarkdown(scan, () => Effect.succeed("read"))))
  console.log(`  anchor, PDF.js text extraction: ${(anchor / 20).toFixed(1)} ms per page (20-page text PDF)`)
  console.log(
    `  text PDF → markdown:            ${(ours / 20).toFixed(1)} ms per page (${(ours / anchor).toFixed(1)}× the anchor)`
  )
  console.log(
    `  scanned PDF → markdown:         ${(scanned / 5).toFixed(1)} ms per page, rendering each page to a PNG (the ocr model's time not included)`
  )
}

if (import.meta.main) await benchPdf()
