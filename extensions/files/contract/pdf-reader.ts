/**
 * A PDF as markdown: the one parser files.read, the twin's file indexing and thread attachments
 * share (extensions/files/pdf-markdown.ts binds it). Each page's text layer is read; a page without
 * one (a scan) is rendered to a PNG and handed to `readPageImage` (the `ocr` tier, a file-parser
 * step before any model reads the file), an Effect the reader runs in its own fiber. Pages are
 * joined under a `<!-- page N -->` marker. The work is bounded (pages, pages read by image, bytes)
 * and a PDF that cannot be opened is a PdfUnreadable with a plain message, never a crash.
 */
import type { UnknownException } from "effect/Cause"
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import type * as Effect from "effect/Effect"

/** The most pages turned into markdown; the rest are named in a closing note. */
export const MAX_PDF_PAGES = 200
/** The most text-less pages of one PDF sent to the ocr tier (each is a model call). */
export const MAX_OCR_PAGES = 20
/** The largest PDF parsed. */
export const MAX_PDF_BYTES = 20 * 1024 * 1024

export const isPdf = (bytes: Uint8Array) =>
  bytes.length >= 5 &&
  bytes[0] === 0x25 &&
  bytes[1] === 0x50 &&
  bytes[2] === 0x44 &&
  bytes[3] === 0x46 &&
  bytes[4] === 0x2d

/** Reads a page image; null when no ocr tier is bound (the page gets a note instead). */
export type ReadPageImage<E> = (png: Uint8Array, page: number) => Effect.Effect<string | null, E>

/** Not a PDF, too large, or one the parser cannot open; the message says which. */
export class PdfUnreadable extends Data.TaggedError("PdfUnreadable")<{ readonly message: string }> {}

export type PdfMarkdown = {
  readonly markdown: string
  readonly pages: number
  /** Pages read through the ocr tier. */
  readonly ocrPages: number
}

export interface PdfReaderShape {
  /**
   * The PDF's pages as markdown. Fails with PdfUnreadable, with what `readPageImage` fails with, or
   * with an UnknownException when the parser breaks on a page of a PDF it opened.
   */
  readonly toMarkdown: <E>(
    bytes: Uint8Array,
    readPageImage: ReadPageImage<E>
  ) => Effect.Effect<PdfMarkdown, PdfUnreadable | UnknownException | E>
}

export class PdfReader extends Context.Tag("files/PdfReader")<PdfReader, PdfReaderShape>() {}
