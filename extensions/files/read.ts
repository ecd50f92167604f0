/**
 * files.read (its schema is ours: the first document leaves it out). Text comes back as UTF-8,
 * anything else as base64; a file longer than `maxBytes` is cut there (at a character boundary
 * for text) and marked `truncated`, so one call never pulls a huge file into a prompt. A PDF read
 * as UTF-8 answers its markdown (the PdfReader): a model reads the words, not the PDF's bytes.
 */
import * as Effect from "effect/Effect"
import { UnknownException } from "effect/Cause"
import * as Schema from "effect/Schema"
import type { CapabilityRefused } from "../../kernel/extensions/capability-refused.ts"
import type { LlmAdapter } from "../../kernel/extensions/llm.ts"
import { describeFileError, FileRootError, openRegularFile } from "../../kernel/extensions/file-root.ts"
import {
  defineSkill,
  fileRootOf,
  SkillFailure,
  skillStep,
  withDefault,
  type SkillRunContext
} from "../../kernel/extensions/skill.ts"
import { mimeOf } from "./contract/mime.ts"
import { MAX_PDF_BYTES, PdfReader, PdfUnreadable, type ReadPageImage } from "./contract/pdf-reader.ts"
import { PdfReaderLive } from "./pdf-markdown.ts"

const maxReadBytes = 10 * 1024 * 1024

const Encoding = Schema.Literal("utf8", "base64")

const Input = Schema.Struct({
  path: Schema.String.annotations({ description: "A file relative to the root." }),
  encoding: withDefault(Encoding, "utf8"),
  maxBytes: withDefault(Schema.Int.pipe(Schema.between(1, maxReadBytes)), 1024 * 1024)
})

const Output = Schema.Struct({
  path: Schema.String,
  content: Schema.String,
  encoding: Encoding,
  /** The whole file's size in bytes, even when only a part was read. */
  size: Schema.Number,
  mime: Schema.String,
  truncated: Schema.Boolean,
  /** Set when `content` is the file turned into markdown (a PDF's pages) rather than its bytes. */
  converted: Schema.optional(Schema.Literal("markdown"))
})

/** Where to cut UTF-8 bytes so the last character is whole: never inside a multi-byte sequence. */
const utf8Boundary = (bytes: Uint8Array, length: number) => {
  if (length === 0) return 0
  // Step back over continuation bytes (10xxxxxx) to the lead byte of the last character.
  let lead = length - 1
  while (lead > 0 && length - lead < 4 && (bytes[lead]! & 0xc0) === 0x80) lead--
  const byte = bytes[lead]!
  const width = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1
  return lead + width <= length ? length : lead
}

/** The page reader over the llm adapter's `ocr`: none bound, every scanned page gets a note. */
const pageReader = (ocr: LlmAdapter["ocr"]): ReadPageImage<CapabilityRefused> =>
  ocr === undefined ? () => Effect.succeed(null) : (png) => ocr({ png })

export const read = defineSkill({
  description: "Read a file of the file root, as UTF-8 text or base64, up to maxBytes.",
  input: Input,
  output: Output,
  run: (input, context) =>
    Effect.gen(function* () {
      const file = yield* skillStep(() => readFile(input, context))
      if (!("pdf" in file)) return file
      const { markdown } = yield* (yield* PdfReader).toMarkdown(file.pdf, pageReader(context.adapters.llm?.ocr)).pipe(
        Effect.mapError(
          (error) =>
            new SkillFailure({
              message: describeFileError(
                error instanceof PdfUnreadable
                  ? new FileRootError(`${file.path}: ${error.message}`)
                  : error instanceof UnknownException
                    ? error.error
                    : error,
                file.path
              ).message
            })
        )
      )
      const bytes = Buffer.from(markdown, "utf8")
      const cut = bytes.subarray(0, utf8Boundary(bytes, Math.min(bytes.length, input.maxBytes)))
      return {
        path: file.path,
        content: cut.toString("utf8"),
        encoding: "utf8" as const,
        size: file.size,
        mime: "application/pdf",
        truncated: cut.length < bytes.length,
        converted: "markdown" as const
      }
    }).pipe(Effect.provide(PdfReaderLive))
})

/** The file's answer, or for a PDF read as UTF-8 its bytes, which the skill turns into markdown. */
const readFile = async (input: typeof Input.Type, context: SkillRunContext) => {
  const file = await fileRootOf(context).resolve(input.path)
  if (file.path === "") throw new FileRootError("Name a file to read; the root itself is a folder.")
  try {
    const handle = await openRegularFile(file.absolute, file.path)
    try {
      const info = await handle.stat()
      if (input.encoding === "utf8" && mimeOf(file.path) === "application/pdf") {
        if (info.size > MAX_PDF_BYTES)
          throw new FileRootError(
            `${file.path} is ${info.size} bytes; a PDF is read as markdown up to ${MAX_PDF_BYTES}.`
          )
        return { path: file.path, size: info.size, pdf: new Uint8Array(await handle.readFile()) }
      }
      const wanted = Math.min(info.size, input.maxBytes)
      const buffer = Buffer.alloc(wanted)
      let filled = 0
      while (filled < wanted) {
        const { bytesRead } = await handle.read(buffer, filled, wanted - filled, filled)
        if (bytesRead === 0) break
        filled += bytesRead
      }
      const truncated = info.size > filled
      const bytes = buffer.subarray(0, input.encoding === "utf8" && truncated ? utf8Boundary(buffer, filled) : filled)
      return {
        path: file.path,
        content: bytes.toString(input.encoding),
        encoding: input.encoding,
        size: info.size,
        mime: mimeOf(file.path),
        truncated
      }
    } finally {
      await handle.close()
    }
  } catch (error) {
    throw describeFileError(error, file.path)
  }
}
