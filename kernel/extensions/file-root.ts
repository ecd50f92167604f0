/**
 * The one folder a skill call may touch (the first document's skill rule 1): inside a
 * project its workspace, outside one the calling being's uploads folder. Paths that callers give
 * are relative to it with forward slashes; anything that would leave it is refused: `..`, an
 * absolute path, or a symlink (anywhere along the path) whose target lies outside. The symlink
 * check resolves real paths just before use, so a link swapped in between check and use is a
 * window we accept: the root belongs to the being whose skills write it. Only regular files and
 * folders are touched: a FIFO, socket or device is refused, and never opened in a way that waits.
 */
import { constants } from "node:fs"
import { lstat, mkdir, open, realpath, stat, type FileHandle } from "node:fs/promises"
import { dirname, join, sep } from "node:path"
import { fileStoreRoot, type FileStoreSettings } from "../file-stores.ts"

export type FileRootKind = "project" | "uploads"

/** Why a path was refused or a file operation failed, in words that name only relative paths. */
export class FileRootError extends Error {
  override readonly name = "FileRootError"
}

export interface WriteResult {
  /** Relative to the root, forward slashes. */
  readonly path: string
  /** The file's size after the write. */
  readonly size: number
  /** False when an existing file was replaced or appended to. */
  readonly created: boolean
}

export interface FileRoot {
  readonly kind: FileRootKind
  /** Absolute; created by the first write. */
  readonly dir: string
  /**
   * Where a relative path really is (its real path when it exists) and its normalised relative
   * form; a FileRootError when it would leave the root. Build child paths from `path`, not from
   * `absolute`, which may differ from `dir` by resolved links.
   */
  readonly resolve: (path: string) => Promise<{ readonly absolute: string; readonly path: string }>
  /** Writes (or appends) bytes, creating parent folders; never follows a symlink out of the root. */
  readonly write: (path: string, data: Uint8Array, options?: { readonly append?: boolean }) => Promise<WriteResult>
}

/** Ids become folder names, so only plain id characters are let through. */
const safeSegment = /^[A-Za-z0-9_-]{1,128}$/

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException | undefined)?.code === "ENOENT"

/** Splits a caller's path into segments, refusing absolute paths, `..` and NUL. `''` is the root. */
const pathSegments = (path: string): ReadonlyArray<string> => {
  if (path.includes("\0")) throw new FileRootError("A path cannot contain a NUL character.")
  const normalised = path.replaceAll("\\", "/")
  if (normalised.startsWith("/") || /^[A-Za-z]:/.test(normalised)) {
    throw new FileRootError(`"${path}" is absolute; give a path relative to the root (e.g. notes/today.md).`)
  }
  const segments = normalised.split("/").filter((segment) => segment !== "" && segment !== ".")
  if (segments.includes("..")) throw new FileRootError(`"${path}" climbs out with "..": paths stay inside the root.`)
  return segments
}

const notRegular = (shown: string) =>
  new FileRootError(`${shown} is not a regular file (a pipe, socket or device): only files and folders are used here.`)

/** Plain words for a failed file operation, never the host path that Node's messages carry. */
export const describeFileError = (error: unknown, path: string): FileRootError => {
  if (error instanceof FileRootError) return error
  const shown = path === "" ? "the root" : path
  switch ((error as NodeJS.ErrnoException | undefined)?.code) {
    case "ENOENT":
      return new FileRootError(`${shown} does not exist.`)
    case "EISDIR":
      return new FileRootError(`${shown} is a folder, not a file.`)
    case "ENOTDIR":
      return new FileRootError(`${shown} is not a folder (a part of it is a file).`)
    case "EEXIST":
      return new FileRootError(`${shown} already exists as something other than a file.`)
    case "ELOOP":
      return new FileRootError(`${shown} is a symbolic link, which is not followed here.`)
    case "EACCES":
    case "EPERM":
      return new FileRootError(`${shown} cannot be accessed (permission denied).`)
    case "ENXIO":
      return notRegular(shown)
    case "ENOSPC":
      return new FileRootError(`There is no space left to write ${shown}.`)
    default:
      return new FileRootError(
        `${shown} could not be used: ${(error as Error | undefined)?.message?.split(",")[0] ?? "unknown error"}.`
      )
  }
}

/**
 * Opens a regular file for reading without ever waiting on something that is not one: opening
 * a FIFO waits for a writer, holding one of libuv's four pool threads (and, with a few such
 * calls, every password check queued behind them). Opened non-blocking, it opens at once and
 * fstat tells what it is; only a regular file is kept open. A link is not followed (callers hand
 * in resolved paths).
 */
export const openRegularFile = async (absolute: string, shown: string): Promise<FileHandle> => {
  const handle = await open(absolute, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW)
  const info = await handle.stat().catch(async (error) => {
    await handle.close()
    throw error
  })
  if (info.isFile()) return handle
  await handle.close()
  throw info.isDirectory() ? describeFileError({ code: "EISDIR" }, shown) : notRegular(shown)
}

/** A root without a skill's kind: any folder whose paths are confined the same way (the owner's own folder). */
export type ConfinedFolder = Omit<FileRoot, "kind">

export const confinedFolder = (dir: string): ConfinedFolder => {
  const inside = (real: string, realRoot: string) => real === realRoot || real.startsWith(realRoot + sep)

  /** The real path of the root, or null while it does not exist (then nothing in it can be a link). */
  const realRoot = () => realpath(dir).catch((error) => (isMissing(error) ? null : Promise.reject(error)))

  /** The real path of `absolute` or of its deepest existing ancestor must stay inside the root. */
  const confine = async (absolute: string, shown: string) => {
    const rootReal = await realRoot()
    if (rootReal === null) return absolute
    let candidate = absolute
    for (;;) {
      try {
        const real = await realpath(candidate)
        if (!inside(real, rootReal))
          throw new FileRootError(`"${shown}" leads outside the root through a symbolic link.`)
        return candidate === absolute ? real : absolute
      } catch (error) {
        if (!isMissing(error) || candidate === dir) throw error
        candidate = dirname(candidate)
      }
    }
  }

  const resolve: FileRoot["resolve"] = async (path) => {
    const segments = pathSegments(path)
    const shown = segments.join("/")
    try {
      return { absolute: await confine(join(dir, ...segments), shown), path: shown }
    } catch (error) {
      throw describeFileError(error, shown)
    }
  }

  const write: FileRoot["write"] = async (path, data, options = {}) => {
    const target = await resolve(path)
    if (target.path === "") throw new FileRootError("Name a file to write; the root itself is a folder.")
    try {
      await mkdir(dirname(target.absolute), { recursive: true })
      // Checked again now that the parents exist: one of them may be a link made meanwhile.
      const confined = await confine(target.absolute, target.path)
      const existing = await lstat(confined).catch((error) => (isMissing(error) ? null : Promise.reject(error)))
      if (existing !== null && !existing.isFile() && !existing.isSymbolicLink()) {
        throw existing.isDirectory() ? describeFileError({ code: "EISDIR" }, target.path) : notRegular(target.path)
      }
      // Non-blocking and checked once open, as for reading: a FIFO swapped in meanwhile must not hold a thread.
      const flags =
        constants.O_WRONLY |
        constants.O_CREAT |
        constants.O_NOFOLLOW |
        constants.O_NONBLOCK |
        (options.append === true ? constants.O_APPEND : constants.O_TRUNC)
      const handle = await open(confined, flags, 0o644)
      try {
        if (!(await handle.stat()).isFile()) throw notRegular(target.path)
        await handle.writeFile(data)
      } finally {
        await handle.close()
      }
      return { path: target.path, size: (await stat(confined)).size, created: existing === null }
    } catch (error) {
      throw describeFileError(error, target.path)
    }
  }

  return { dir, resolve, write }
}

const makeFileRoot = (kind: FileRootKind, dir: string): FileRoot => ({ kind, ...confinedFolder(dir) })

/** The root of one skill call: the project's workspace, or the being's uploads folder. */
export const fileRootFor = (settings: FileStoreSettings, beingId: string, projectId: string | null): FileRoot => {
  const id = projectId ?? beingId
  if (!safeSegment.test(id)) throw new FileRootError(`"${id}" cannot name a folder.`)
  return projectId === null
    ? makeFileRoot("uploads", join(fileStoreRoot(settings, "uploads"), beingId))
    : makeFileRoot("project", join(fileStoreRoot(settings, "projects"), projectId, "workspace"))
}
