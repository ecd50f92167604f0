/**
 * The threads' ThreadAttachments port over the caller's uploads. `resolve` names a message's
 * attachments when it is posted (the caller's own uploads only); `read` gives the Muse what one
 * says: a text file as written, a PDF as markdown through the one parser (its scanned pages read
 * by the ocr tier, charged to the being), an image as an image. Anything else, or a file gone or
 * broken since, is unreadable with the reason, never a failed reply.
 */
import type { FileHandle } from "node:fs/promises"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { isTextMime, mimeOf } from "../files/contract/mime.ts"
import { isPdf, MAX_PDF_BYTES, PdfReader, PdfUnreadable } from "../files/contract/pdf-reader.ts"
import { ModelRoutes } from "../models/contract/routes.ts"
import type { Attachment } from "./contract/records.ts"
import { type AttachmentReading, ThreadAttachments } from "./ports.ts"
import { AttachmentNotFound, AttachmentNotUpload, NotAnUpload } from "./contract/errors.ts"
import { FileAccess } from "../files/contract/file-access.ts"
import { decodeFileId } from "../files/contract/file-ids.ts"
import { spanNamed } from "../../kernel/spans.ts"

/**
 * PDFs read lately, by being, file and version: a thread's every reply reads its attachments again, a scan's pages cost
 * model calls.
 */
const pdfCacheSize = 16

/** At most `maxChars` characters of a UTF-8 file; null when its bytes are not UTF-8 text. */
const readText = async (handle: FileHandle, size: number, maxChars: number) => {
  // A character is at most 4 bytes: this many bytes hold maxChars characters whatever they are.
  const wanted = Math.min(size, maxChars * 4)
  const { buffer, bytesRead } = await handle.read(Buffer.alloc(wanted), 0, wanted, 0)
  const bytes = buffer.subarray(0, bytesRead)
  if (bytes.includes(0)) return null
  try {
    // `stream`: a character cut at the end of what was read is held back, not an error.
    const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes, { stream: bytesRead < size })
    return { text: text.slice(0, maxChars), truncated: bytesRead < size || text.length > maxChars }
  } catch {
    return null
  }
}

export const ThreadAttachmentsLive = Layer.effect(
  ThreadAttachments,
  Effect.gen(function* () {
    const files = yield* FileAccess
    const models = yield* ModelRoutes
    const pdfReader = yield* PdfReader
    const pdfs = new Map<string, string>()

    const uploadOf = (beingId: string, fileId: string) =>
      Effect.gen(function* () {
        if (decodeFileId(fileId)?.scope !== "upload") return yield* new NotAnUpload({ message: "Not an upload." })
        return yield* files.open({ beingId, isOwner: false }, fileId)
      })

    const pdfMarkdown = (beingId: string, key: string, handle: FileHandle) =>
      Effect.gen(function* () {
        const known = pdfs.get(key)
        if (known !== undefined) return known
        const bytes = new Uint8Array(yield* Effect.promise(() => handle.readFile()))
        const { markdown } = yield* pdfReader.toMarkdown(bytes, (png) =>
          models.readPage({ purpose: "muse attachment", beingId, projectId: null }, png)
        )
        pdfs.set(key, markdown)
        if (pdfs.size > pdfCacheSize) pdfs.delete(pdfs.keys().next().value!)
        return markdown
      })

    const read = (beingId: string, fileId: string, maxChars: number) =>
      Effect.gen(function* () {
        const opened = yield* uploadOf(beingId, fileId).pipe(Effect.option)
        if (opened._tag === "None")
          return { kind: "unreadable", reason: "it is no longer among their uploads." } satisfies AttachmentReading
        const { handle, stats, name } = opened.value
        return yield* Effect.gen(function* () {
          const mime = mimeOf(name)
          if (mime.startsWith("image/")) return { kind: "image" } satisfies AttachmentReading
          const head = new Uint8Array(5)
          yield* Effect.promise(() => handle.read(head, 0, 5, 0))
          if (mime === "application/pdf" || isPdf(head)) {
            if (stats.size > MAX_PDF_BYTES)
              return {
                kind: "unreadable",
                reason: `the PDF is ${stats.size} bytes; at most ${MAX_PDF_BYTES} are read.`
              } satisfies AttachmentReading
            const markdown = yield* pdfMarkdown(
              beingId,
              `${beingId}\u0000${fileId}\u0000${stats.size}\u0000${stats.mtimeMs}`,
              handle
            ).pipe(Effect.either)
            if (markdown._tag === "Left") {
              const error = markdown.left
              if (!(error instanceof PdfUnreadable))
                yield* Effect.logWarning("An attached PDF could not be read", error)
              return {
                kind: "unreadable",
                reason: error instanceof PdfUnreadable ? error.message : "reading the PDF failed on the node."
              } satisfies AttachmentReading
            }
            return {
              kind: "text",
              text: markdown.right.slice(0, maxChars),
              truncated: markdown.right.length > maxChars
            } satisfies AttachmentReading
          }
          // Known text kinds, and a file whose name says nothing of its kind, are read if their bytes are UTF-8.
          if (isTextMime(mime) || mime === "application/octet-stream") {
            const text = yield* Effect.promise(() => readText(handle, stats.size, maxChars))
            if (text !== null) return { kind: "text", ...text } satisfies AttachmentReading
          }
          return { kind: "unreadable", reason: `it is not text or a PDF (${mime}).` } satisfies AttachmentReading
        }).pipe(Effect.ensuring(Effect.promise(() => handle.close())))
      }).pipe(spanNamed("threads.readAttachment"))

    /**
     * An attachment is one of the caller's uploads: a project's file or the owner's folder is refused, another's upload
     * is missing.
     */
    const resolve = (beingId: string, fileIds: ReadonlyArray<string>) =>
      Effect.forEach(fileIds, (fileId) =>
        Effect.gen(function* () {
          if (decodeFileId(fileId)?.scope !== "upload") {
            return yield* new AttachmentNotUpload({
              message: "An attachment is one of your uploads (POST /api/files/upload answers its id).",
              details: { fileId: fileId.slice(0, 200) }
            })
          }
          const opened = yield* files.open({ beingId, isOwner: false }, fileId).pipe(
            Effect.catchTag("FileNotFound", () =>
              Effect.fail(
                new AttachmentNotFound({
                  message: "There is no such file in your uploads.",
                  details: { fileId: fileId.slice(0, 200) }
                })
              )
            )
          )
          yield* Effect.promise(() => opened.handle.close())
          const attachment: Attachment = { fileId, name: opened.name, size: opened.stats.size }
          return attachment
        })
      )

    return { resolve, read }
  })
)
