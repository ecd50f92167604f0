/**
 * POST /api/files/upload: multipart/form-data streamed through busboy into the caller's uploads
 * folder (`<FILES_DIR>/uploads/<beingId>`, the folder their skills use outside a project), under
 * the optional `path` field's folder. The parts are first written to a staging folder of their
 * own (`<FILES_DIR>/upload-staging/<random>`, same file system) and only placed once the whole body has
 * been read and found good, so a refused upload (over MAX_UPLOAD_BYTES, a bad name or path, a
 * broken body) leaves nothing behind. A name already taken gets " (1)", " (2)"… before its
 * extension, as a browser's downloads do; each name is claimed with link(2), which fails rather
 * than replace, so two uploads racing for one name both keep their file.
 */
import * as Effect from "effect/Effect"
import Busboy from "busboy"
import { randomUUID } from "node:crypto"
import { createWriteStream } from "node:fs"
import { link, mkdir, readdir, rm, stat } from "node:fs/promises"
import type { IncomingMessage } from "node:http"
import { join } from "node:path"
import { pipeline } from "node:stream/promises"
import { extensionOf } from "./contract/mime.ts"
import {
  InvalidFilename,
  InvalidPath,
  MalformedUpload,
  NoFile,
  TooManyFiles,
  UploadTooLarge
} from "./contract/errors.ts"
import { describeFileError, fileRootFor, FileRootError } from "../../kernel/extensions/file-root.ts"
import { fileStoreRoot } from "../../kernel/file-stores.ts"
import { Settings } from "../../kernel/settings.ts"
import type { Caller } from "../accounts/contract/session.ts"
import { MAX_UPLOAD_FILES, type FileEntry } from "./contract/records.ts"
import { encodeFileId } from "./contract/file-ids.ts"
import { FilesSettings } from "./settings.ts"
import { fnNamed } from "../../kernel/spans.ts"

/** The form fields an upload reads besides its files; any other is ignored. */
const PATH_FIELD = "path"
const MAX_NAME_BYTES = 255

interface Staged {
  readonly name: string
  readonly staged: string
}

/** Why a multipart body was not taken, found while reading it. */
type UploadRefusal = MalformedUpload | UploadTooLarge | InvalidPath | TooManyFiles | InvalidFilename

type Parsed =
  | { readonly _tag: "Read"; readonly files: ReadonlyArray<Staged>; readonly path: string }
  | { readonly _tag: "Refused"; readonly error: UploadRefusal }

/** The last segment of a part's filename (a browser may send a path); null when it cannot name a file. */
const fileNameOf = (filename: string): string | null => {
  const name = filename.slice(Math.max(filename.lastIndexOf("/"), filename.lastIndexOf("\\")) + 1)
  const usable =
    name !== "" &&
    !name.startsWith(".") &&
    // biome-ignore lint/suspicious/noControlCharactersInRegex: a name with control characters is refused on purpose
    !/[\u0000-\u001f\u007f]/.test(name) &&
    Buffer.byteLength(name) <= MAX_NAME_BYTES
  return usable ? name : null
}

const invalidName = (filename: string) =>
  new InvalidFilename({
    message:
      `"${filename.slice(0, 200)}" cannot name a file: give each file a name of at most ${MAX_NAME_BYTES} bytes, ` +
      "not starting with a dot, without control characters."
  })

/** `report.pdf`, `report (1).pdf`, `report (2).pdf`… */
const candidate = (name: string, attempt: number) => {
  if (attempt === 0) return name
  const ext = extensionOf(name)
  const stem = ext === "" ? name : name.slice(0, name.length - ext.length - 1)
  return ext === "" ? `${stem} (${attempt})` : `${stem} (${attempt}).${ext}`
}

/** Reads the whole body into the staging folder, within the limit; never places anything. */
const readParts = (source: IncomingMessage, staging: string, limit: number) =>
  new Promise<Parsed>((resolve) => {
    const files: Array<Staged> = []
    /** The parts being written: a refusal ends them, so their writes settle without the rest of the body. */
    const parts = new Set<NodeJS.ReadableStream & { destroy: (error?: Error) => void }>()
    const writes: Array<Promise<void>> = []
    let path = ""
    let received = 0
    let settled = false
    let parser: Busboy.Busboy
    const finish = (result: Parsed) => {
      if (settled) return
      settled = true
      source.off("data", count)
      if (result._tag === "Refused") {
        // The rest of the body is never read: the refusal closes the connection (kernel/http/refusal-response.ts).
        source.unpipe(parser)
        source.pause()
        for (const part of parts) part.destroy(new Error("upload refused"))
      }
      // Every part's file is complete (or failed) before the staging folder is placed or removed.
      void Promise.allSettled(writes).then((outcomes) => {
        const failed = outcomes.find((outcome) => outcome.status === "rejected")
        resolve(
          result._tag === "Read" && failed !== undefined
            ? {
                _tag: "Refused",
                error: new MalformedUpload({ message: "The upload was cut off before its files were complete." })
              }
            : result
        )
      })
    }
    const refuse = (error: UploadRefusal) => finish({ _tag: "Refused", error })
    const count = (chunk: Buffer) => {
      received += chunk.length
      if (received > limit) {
        refuse(
          new UploadTooLarge({
            message: `The upload is larger than this node takes (at most ${limit} bytes in one request).`,
            details: { limitBytes: limit }
          })
        )
      }
    }

    try {
      parser = Busboy({
        headers: source.headers,
        limits: { files: MAX_UPLOAD_FILES, fields: 10, fieldSize: 4096, parts: MAX_UPLOAD_FILES + 10 }
      })
    } catch {
      return refuse(new MalformedUpload({ message: "Send the files as multipart/form-data, with its boundary." }))
    }
    parser.on("file", (_field, stream, info) => {
      const name = fileNameOf(info.filename ?? "")
      if (settled || name === null) {
        stream.resume()
        if (name === null) refuse(invalidName(info.filename ?? ""))
        return
      }
      const staged = join(staging, String(files.length))
      files.push({ name, staged })
      parts.add(stream)
      writes.push(pipeline(stream, createWriteStream(staged, { flags: "wx" })).finally(() => parts.delete(stream)))
    })
    parser.on("field", (field, value, info) => {
      if (field !== PATH_FIELD) return
      if (info.valueTruncated) return refuse(new InvalidPath({ message: "The path field is too long." }))
      path = value
    })
    parser.on("filesLimit", () =>
      refuse(new TooManyFiles({ message: `Upload at most ${MAX_UPLOAD_FILES} files at once.` }))
    )
    parser.on("partsLimit", () => refuse(new MalformedUpload({ message: "The upload has too many parts." })))
    parser.on("error", () => refuse(new MalformedUpload({ message: "The multipart body could not be read." })))
    parser.on("close", () => finish({ _tag: "Read", files, path }))
    source.on("data", count)
    source.once("aborted", () => refuse(new MalformedUpload({ message: "The upload was cut off." })))
    source.pipe(parser)
  })

/**
 * Node's HTTP server gives a request five minutes (its `requestTimeout`) to arrive whole, so a
 * staged folder untouched for an hour belongs to no upload still being read.
 */
const staleStagingMs = 60 * 60 * 1000

/**
 * What a crash left staged was never placed: nobody's file. The staging folder is shared by every
 * process on FILES_DIR, so only what is stale goes: another process may be receiving an upload now.
 */
const sweepStaging = async (root: string, before: number) => {
  const entries = await readdir(root).catch(() => [])
  await Promise.all(
    entries.map(async (entry) => {
      const folder = join(root, entry)
      const info = await stat(folder).catch(() => null)
      if (info !== null && info.mtimeMs < before) await rm(folder, { recursive: true, force: true })
    })
  )
}

export class FileUploads extends Effect.Service<FileUploads>()("files/FileUploads", {
  effect: Effect.gen(function* () {
    const settings = yield* Settings
    const { maxUploadBytes } = yield* FilesSettings
    const stagingRoot = fileStoreRoot(settings, "upload-staging")
    yield* Effect.promise(() => sweepStaging(stagingRoot, Date.now() - staleStagingMs))

    /** Claims the first free name of `name` in `folder` for the staged file; answers its relative path. */
    const place = async (root: ReturnType<typeof fileRootFor>, folder: string, file: Staged) => {
      for (let attempt = 0; ; attempt++) {
        const name = candidate(file.name, attempt)
        const target = await root.resolve(folder === "" ? name : `${folder}/${name}`)
        try {
          await link(file.staged, target.absolute)
          return target.path
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error
        }
      }
    }

    const upload = fnNamed("files.upload")(function* (caller: Caller, source: IncomingMessage) {
      const staging = join(stagingRoot, randomUUID())
      yield* Effect.promise(() => mkdir(staging, { recursive: true }))
      return yield* Effect.gen(function* () {
        const parsed = yield* Effect.promise(() => readParts(source, staging, maxUploadBytes))
        if (parsed._tag === "Refused") return yield* parsed.error
        if (parsed.files.length === 0) {
          return yield* new NoFile({
            message: "Send at least one file part (a form field with a filename)."
          })
        }
        const root = fileRootFor(settings, caller.beingId, null)
        const placed = yield* Effect.tryPromise({
          try: async () => {
            const folder = await root.resolve(parsed.path)
            await mkdir(folder.absolute, { recursive: true })
            // Checked again now that the folders exist: one of them may be a link made meanwhile.
            const confined = await root.resolve(folder.path)
            const paths: Array<string> = []
            for (const file of parsed.files) paths.push(await place(root, confined.path, file))
            return Promise.all(
              paths.map(async (path) => ({ path, stats: await stat((await root.resolve(path)).absolute) }))
            )
          },
          catch: (error) => error
        }).pipe(
          Effect.catchAll((error) =>
            // A refused path, or one through a file, is the caller's; any other fault of the disk is the node's.
            error instanceof FileRootError ||
            ["ENOTDIR", "EEXIST"].includes((error as NodeJS.ErrnoException).code ?? "")
              ? Effect.fail(new InvalidPath({ message: describeFileError(error, parsed.path).message }))
              : Effect.die(error)
          )
        )
        return placed.map(({ path, stats }): FileEntry => {
          const name = path.slice(path.lastIndexOf("/") + 1)
          return {
            id: encodeFileId({ scope: "upload", projectId: null, path }),
            beingId: caller.beingId,
            path,
            name,
            ext: extensionOf(name),
            size: stats.size,
            mtime: stats.mtime.toISOString(),
            isDir: false,
            summary: null,
            scope: "upload",
            projectId: null
          }
        })
      }).pipe(Effect.ensuring(Effect.promise(() => rm(staging, { recursive: true, force: true }))))
    })

    return { upload, maxUploadBytes } as const
  })
}) {}
