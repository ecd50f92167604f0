/**
 * A caller's files, by scope: `upload` (their uploads folder, `<FILES_DIR>/uploads/<beingId>`, the
 * same folder their skills use outside a project), `project` (the workspace of a project they
 * own) and `user` (the owner's own folder, FILES_ROOT; the owner's only). Every path goes through
 * the file root's confinement (kernel/extensions/file-root.ts): regular files and folders inside
 * the root only. Another being's project reads as missing (404), never as forbidden.
 */
import type { Stats } from "node:fs"
import type { FileHandle } from "node:fs/promises"
import { readdir, stat } from "node:fs/promises"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { ProjectWorkspaces } from "../../actors/project/contract/project-workspaces.ts"
import { extensionOf, mimeOf } from "./contract/mime.ts"
import { walk, type WalkEntry } from "../../kernel/extensions/walk.ts"
import {
  FileNotFound,
  FileTooLarge,
  InvalidPath,
  NotAFile,
  NotAFileId,
  NotAFolder,
  ProjectFolderNotFound,
  ScopeMismatch,
  UserScopeOwnerOnly
} from "./contract/errors.ts"
import {
  confinedFolder,
  describeFileError,
  fileRootFor,
  FileRootError,
  openRegularFile,
  type ConfinedFolder
} from "../../kernel/extensions/file-root.ts"
import { fileStoreRoot } from "../../kernel/file-stores.ts"
import { Settings } from "../../kernel/settings.ts"
import type { Caller } from "../accounts/contract/session.ts"
import {
  MAX_LIST_ENTRIES,
  MAX_READ_BYTES,
  MAX_SEARCH_RESULTS,
  type FileContent,
  type FileEntry,
  type FileScope
} from "./contract/records.ts"
import { decodeFileId, encodeFileId } from "./contract/file-ids.ts"
import { FilesSettings } from "./settings.ts"
import { FileSummaries } from "./contract/file-summaries.ts"
import { FileAccess, type OpenedFile, type ScopeRoot } from "./contract/file-access.ts"
import { fnNamed } from "../../kernel/spans.ts"

declare module "./contract/file-access.ts" {
  interface FileSystemTypes {
    readonly handle: FileHandle
    readonly stats: Stats
    readonly folder: ConfinedFolder
  }
}

/** Bounds one search's walk over every scope; the answer is what was found by then. */
const MAX_SEARCH_VISITS = 10_000

const notFound = new FileNotFound({ message: "There is no such file in your files." })

/** A file operation's failure as the caller should see it: a missing file, a refused path, or a defect. */
const fileFailure = (error: unknown, path: string): FileNotFound | NotAFile | NotAFolder | InvalidPath => {
  const described = describeFileError(error, path)
  if (/does not exist|is not a folder \(a part of it is a file\)/.test(described.message)) return notFound
  if (/is a folder, not a file|is not a regular file/.test(described.message)) {
    return new NotAFile({
      message: `${described.message} Only regular files are read or downloaded.`
    })
  }
  if (/is a file, not a folder/.test(described.message)) return new NotAFolder({ message: described.message })
  return new InvalidPath({ message: described.message })
}

/** Runs file-system work; its FileRootErrors and Node errors become the caller's refusals. */
const onDisk = <A>(path: string, work: (signal: AbortSignal) => Promise<A>) =>
  Effect.tryPromise({ try: work, catch: (error) => error }).pipe(
    Effect.catchAll((error) =>
      error instanceof FileRootError || typeof (error as NodeJS.ErrnoException | undefined)?.code === "string"
        ? Effect.fail(fileFailure(error, path))
        : Effect.die(error)
    )
  )

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException | undefined)?.code === "ENOENT"

export const FileAccessLive = Layer.effect(
  FileAccess,
  Effect.gen(function* () {
    const settings = yield* Settings
    const filesSettings = yield* FilesSettings
    const workspaces = yield* ProjectWorkspaces
    const summaries = yield* FileSummaries

    const uploads = (caller: Caller): ScopeRoot => ({
      scope: "upload",
      projectId: null,
      folder: fileRootFor(settings, caller.beingId, null)
    })

    /** A project the caller owns; anyone else's, or none, is missing. */
    const projectRoot = (caller: Caller, projectId: string) =>
      Effect.flatMap(workspaces.ownerOf(projectId), (ownerId) =>
        Option.isNone(ownerId) || ownerId.value !== caller.beingId
          ? Effect.fail(new ProjectFolderNotFound({ message: "There is no such project among yours." }))
          : Effect.succeed<ScopeRoot>({
              scope: "project",
              projectId,
              folder: fileRootFor(settings, caller.beingId, projectId)
            })
      )

    /** The owner's folder, when FILES_ROOT names one. */
    const userRoot: Option.Option<ScopeRoot> = Option.map(filesSettings.filesRoot, (dir) => ({
      scope: "user" as const,
      projectId: null,
      folder: confinedFolder(dir)
    }))

    /** The root a listing names; null for the owner's folder while none is set. */
    const rootOf = (caller: Caller, scope: FileScope, projectId: string | undefined) =>
      Effect.gen(function* () {
        if (scope !== "project" && projectId !== undefined) {
          return yield* new ScopeMismatch({ message: "projectId goes with scope project only." })
        }
        switch (scope) {
          case "upload":
            return uploads(caller)
          case "project":
            if (projectId === undefined)
              return yield* new ScopeMismatch({ message: "Scope project needs a projectId." })
            return yield* projectRoot(caller, projectId)
          case "user":
            if (!caller.isOwner)
              return yield* new UserScopeOwnerOnly({ message: "The user scope is the owner's own folder." })
            return Option.getOrNull(userRoot)
        }
      })

    const entryOf = (caller: Caller, root: ScopeRoot, entry: WalkEntry): FileEntry => ({
      id: encodeFileId({ scope: root.scope, projectId: root.projectId, path: entry.path }),
      beingId: caller.beingId,
      path: entry.path,
      name: entry.name,
      ext: entry.isDir ? "" : extensionOf(entry.name),
      size: entry.isDir ? 0 : entry.stats.size,
      mtime: entry.stats.mtime.toISOString(),
      isDir: entry.isDir,
      summary: null,
      scope: root.scope,
      projectId: root.projectId
    })

    /** Fills in the summaries the owner's folder's indexer wrote; other scopes have none. */
    const withSummaries = (caller: Caller, entries: ReadonlyArray<FileEntry>) => {
      const paths = entries.filter((entry) => entry.scope === "user" && !entry.isDir).map((entry) => entry.path)
      if (paths.length === 0) return Effect.succeed(entries)
      return Effect.map(summaries.of(caller.beingId, paths), (found) =>
        entries.map((entry) => (entry.scope === "user" ? { ...entry, summary: found.get(entry.path) ?? null } : entry))
      )
    }

    const list = fnNamed("files.list")(function* (
      caller: Caller,
      params: { readonly scope: FileScope; readonly projectId?: string | undefined; readonly path?: string | undefined }
    ) {
      const path = params.path ?? ""
      const root = yield* rootOf(caller, params.scope, params.projectId)
      if (root === null) return []
      const entries = yield* onDisk(path, async (signal) => {
        const folder = await root.folder.resolve(path)
        const info = await stat(folder.absolute).catch((error) => {
          // A root nobody has written to yet is simply empty.
          if (folder.path === "" && isMissing(error)) return null
          throw error
        })
        if (info === null) return []
        if (!info.isDirectory())
          throw new FileRootError(`${folder.path} is a file, not a folder: list its folder instead.`)
        const entries: Array<FileEntry> = []
        for await (const entry of walk(root.folder, folder, { recursive: false, includeHidden: false, signal })) {
          if (entries.length === MAX_LIST_ENTRIES) break
          entries.push(entryOf(caller, root, entry))
        }
        return entries
      })
      return yield* withSummaries(caller, entries)
    })

    /**
     * Files and folders whose name holds the words, across every scope of the caller. Only the projects whose folder
     * exists are walked, found by listing the projects' store once: most projects of a long year wrote nothing, and
     * trying each one's folder cost two failed file-system calls a project (0.6 s over 5,000 projects).
     */
    const search = fnNamed("files.search")(function* (caller: Caller, query: string) {
      const owned = yield* workspaces.ownedBy(caller.beingId)
      const written = new Set(
        yield* Effect.promise(() => readdir(fileStoreRoot(settings, "projects")).catch((): Array<string> => []))
      )
      const projectIds = owned.filter((projectId) => written.has(projectId))
      const roots: Array<ScopeRoot> = [
        uploads(caller),
        ...projectIds.map(
          (projectId): ScopeRoot => ({
            scope: "project",
            projectId,
            folder: fileRootFor(settings, caller.beingId, projectId)
          })
        ),
        ...(caller.isOwner ? Option.toArray(userRoot) : [])
      ]
      const needle = query.toLowerCase()
      const found = yield* Effect.promise(async (signal) => {
        const found: Array<FileEntry> = []
        let visits = 0
        for (const root of roots) {
          try {
            const top = await root.folder.resolve("")
            for await (const entry of walk(root.folder, top, { recursive: true, includeHidden: false, signal })) {
              if (++visits > MAX_SEARCH_VISITS || found.length === MAX_SEARCH_RESULTS) return found
              if (entry.name.toLowerCase().includes(needle)) found.push(entryOf(caller, root, entry))
            }
          } catch {
            // A root never written to holds nothing; a fault in one root leaves the others searched.
          }
        }
        return found
      })
      return yield* withSummaries(caller, found)
    })

    /**
     * Opens the file an id names, for the caller: their own scopes only (another being's project,
     * or the owner's folder for anyone else, reads as missing). A folder is not a file.
     */
    const open = fnNamed("files.open")(function* (caller: Caller, id: string) {
      const ref = decodeFileId(id)
      if (ref === null)
        return yield* new NotAFileId({ message: "That is not a file id: take one from a listing or a search." })
      const root =
        ref.scope === "upload"
          ? uploads(caller)
          : ref.scope === "project"
            ? yield* Effect.mapError(projectRoot(caller, ref.projectId!), () => notFound)
            : caller.isOwner
              ? Option.getOrNull(userRoot)
              : null
      if (root === null) return yield* notFound
      return yield* onDisk(ref.path, async (): Promise<OpenedFile> => {
        const file = await root.folder.resolve(ref.path)
        if (file.path === "") throw describeFileError({ code: "EISDIR" }, "the root")
        // A folder, FIFO or device is refused before anything waits on it.
        const handle = await openRegularFile(file.absolute, file.path)
        const stats = await handle.stat()
        return { handle, stats, name: file.path.slice(file.path.lastIndexOf("/") + 1) }
      })
    })

    /** A small file whole, as text when it is UTF-8 without NUL bytes, else as base64. */
    const read = fnNamed("files.read")(function* (caller: Caller, id: string) {
      const file = yield* open(caller, id)
      const bytes = yield* Effect.promise(async () => {
        try {
          return file.stats.size > MAX_READ_BYTES ? null : await file.handle.readFile()
        } finally {
          await file.handle.close()
        }
      })
      if (bytes === null) {
        return yield* new FileTooLarge({
          message: `This file is larger than read answers (${MAX_READ_BYTES} bytes); download it instead.`,
          details: { sizeBytes: file.stats.size, limitBytes: MAX_READ_BYTES }
        })
      }
      const mime = mimeOf(file.name)
      const text = bytes.includes(0) ? null : decodeUtf8(bytes)
      return (
        text === null ? { base64: bytes.toString("base64"), mime } : { content: text, mime }
      ) satisfies FileContent
    })

    return { rootOf, list, search, open, read, ownersFolder: Option.getOrNull(filesSettings.filesRoot) }
  })
)

const decodeUtf8 = (bytes: Uint8Array): string | null => {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes)
  } catch {
    return null
  }
}
