/**
 * The twin's TwinFolders port over the files feature: the owner's folder (FILES_ROOT, the `user`
 * scope) with its confinement, so the files provider reads what files.list and files.read would
 * (regular files inside the root, no link followed out of it, the owner's only) and nothing more.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { isTextMime, mimeOf } from "../files/contract/mime.ts"
import { MAX_PDF_BYTES, PdfReader } from "../files/contract/pdf-reader.ts"
import { walk } from "../../kernel/extensions/walk.ts"
import { ModelRoutes } from "../models/contract/routes.ts"
import type { FolderFile } from "./ports.ts"
import { TwinFolders } from "./ports.ts"
import { FileNotFound, FileTooLarge, InvalidPath } from "../files/contract/errors.ts"
import { FilesNotConfigured } from "./contract/errors.ts"
import { describeFileError, openRegularFile } from "../../kernel/extensions/file-root.ts"
import type { Caller } from "../accounts/contract/session.ts"
import { FileAccess } from "../files/contract/file-access.ts"

/** What files.read answers as text and is worth remembering: text, markup, data and config files. */
const isText = (name: string) => isTextMime(mimeOf(name))
/** A PDF is remembered as its markdown (its scanned pages read by the ocr tier). */
const isPdfName = (name: string) => mimeOf(name) === "application/pdf"
const isIndexable = (name: string) => isText(name) || isPdfName(name)

/**
 * A folder path (checked by the files feature already) in its one form: forward slashes, no empty or `.` segments (''
 * is the root).
 */
const normalFolder = (folder: string) =>
  folder
    .replaceAll("\\", "/")
    .split("/")
    .filter((part) => part !== "" && part !== ".")
    .join("/")

const notConfigured = new FilesNotConfigured({
  message: "This node has no FILES_ROOT: set it to the folder the files provider may index."
})

const decodeUtf8 = (bytes: Uint8Array): string | null => {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes)
  } catch {
    return null
  }
}

/** A failure reaching a path of the root, as the person should read it: missing 404, anything else 400. */
const refusalOf = (error: unknown, path: string, what: "file" | "folder") => {
  const described = describeFileError(error, path)
  return /does not exist/.test(described.message)
    ? new FileNotFound({ message: `${described.message} Name a ${what} inside FILES_ROOT.` })
    : new InvalidPath({ message: described.message })
}

export const TwinFoldersLive = Layer.effect(
  TwinFolders,
  Effect.gen(function* () {
    const files = yield* FileAccess
    const models = yield* ModelRoutes
    const pdfReader = yield* PdfReader

    const rootOf = (caller: Caller) =>
      Effect.flatMap(files.rootOf(caller, "user", undefined), (root) =>
        root === null ? Effect.fail(notConfigured) : Effect.succeed(root)
      )

    return {
      rootFor: (caller) => (caller.isOwner ? files.ownersFolder : null),
      // Listing the folder is the files feature's own check: a missing folder 404, a file or a path out of the root
      // 400.
      check: (caller, folder) =>
        Effect.zipRight(
          rootOf(caller),
          Effect.as(files.list(caller, { scope: "user", path: folder }), normalFolder(folder))
        ),
      textFiles: (caller, folder, most) =>
        Effect.flatMap(rootOf(caller), (root) =>
          Effect.tryPromise({
            try: async (signal) => {
              const found: Array<FolderFile> = []
              const top = await root.folder.resolve(normalFolder(folder))
              for await (const entry of walk(root.folder, top, { recursive: true, includeHidden: false, signal })) {
                if (found.length === most) break
                if (!entry.isDir && isIndexable(entry.name)) {
                  found.push({ path: entry.path, size: entry.stats.size, mtime: entry.stats.mtime.toISOString() })
                }
              }
              return found
            },
            catch: (error) => refusalOf(error, folder, "folder")
          })
        ),
      readFile: (caller, path, maxBytes) =>
        Effect.flatMap(rootOf(caller), (root) =>
          Effect.tryPromise({
            try: async () => {
              const file = await root.folder.resolve(path)
              const handle = await openRegularFile(file.absolute, file.path)
              try {
                const { size } = await handle.stat()
                if (size > maxBytes) return size
                return new Uint8Array(await handle.readFile())
              } finally {
                await handle.close()
              }
            },
            catch: (error) => refusalOf(error, path, "file")
          }).pipe(
            Effect.flatMap((read) =>
              typeof read === "number"
                ? Effect.fail(
                    new FileTooLarge({
                      message: `${path} is ${read} bytes; at most ${maxBytes} are read.`,
                      details: { limitBytes: maxBytes }
                    })
                  )
                : Effect.succeed(read)
            )
          )
        ),
      readText: (caller, path, maxBytes) =>
        Effect.flatMap(
          Effect.option(rootOf(caller)),
          Option.match({
            onNone: () => Effect.succeed(null),
            onSome: (root) =>
              Effect.promise(async (): Promise<string | { readonly pdf: Uint8Array } | null> => {
                try {
                  const file = await root.folder.resolve(path)
                  const handle = await openRegularFile(file.absolute, file.path)
                  try {
                    const stats = await handle.stat()
                    if (isPdfName(file.path))
                      return stats.size > MAX_PDF_BYTES ? null : { pdf: new Uint8Array(await handle.readFile()) }
                    if (stats.size > maxBytes || !isText(file.path)) return null
                    const bytes = await handle.readFile()
                    return bytes.includes(0) ? null : decodeUtf8(bytes)
                  } finally {
                    await handle.close()
                  }
                } catch {
                  // Gone, swapped for a link out of the root, or unreadable since the listing: not indexed.
                  return null
                }
              }).pipe(
                Effect.flatMap((read) => {
                  if (read === null || typeof read === "string") return Effect.succeed(read)
                  const charged = { purpose: "file indexing", beingId: caller.beingId, projectId: null }
                  return pdfReader
                    .toMarkdown(read.pdf, (png) => models.readPage(charged, png))
                    .pipe(
                      Effect.map((pdf) => pdf.markdown),
                      // A PDF that cannot be read, or a page the ocr tier failed on: not indexed.
                      Effect.orElseSucceed(() => null)
                    )
                })
              )
          })
        )
    }
  })
)
