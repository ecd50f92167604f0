/**
 * A caller's files, by scope, as other features reach them (extensions/files/file-access.ts binds
 * it): `upload` (their uploads folder), `project` (the workspace of a project they own) and `user`
 * (the owner's own folder, FILES_ROOT; the owner's only). Another being's project reads as missing.
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { Caller } from "../../accounts/contract/session.ts"
import type {
  FileNotFound,
  FileTooLarge,
  InvalidPath,
  NotAFile,
  NotAFileId,
  NotAFolder,
  ProjectFolderNotFound,
  ScopeMismatch,
  UserScopeOwnerOnly
} from "./errors.ts"
import type { FileContent, FileEntry, FileScope } from "./records.ts"

/**
 * What a file on disk is on the node: node's open file and its stat, and the kernel's confined
 * folder. A contract module cannot import them (a browser has none), so file-access.ts names them
 * by declaration merging beside its implementation, as a feature adds its events to the kernel's.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging
export interface FileSystemTypes {}
type OnDisk<K extends string> = FileSystemTypes extends { readonly [P in K]: infer T } ? T : unknown

export interface ScopeRoot {
  readonly scope: FileScope
  readonly projectId: string | null
  readonly folder: OnDisk<"folder">
}

/** A regular file opened for reading, with what its answer needs; the caller closes the handle. */
export interface OpenedFile {
  readonly handle: OnDisk<"handle">
  readonly stats: OnDisk<"stats">
  readonly name: string
}

type Refused = FileNotFound | NotAFile | NotAFolder | InvalidPath

export interface FileAccessShape {
  /** The root a listing names; null for the owner's folder while none is set. */
  readonly rootOf: (
    caller: Caller,
    scope: FileScope,
    projectId: string | undefined
  ) => Effect.Effect<ScopeRoot | null, ScopeMismatch | UserScopeOwnerOnly | ProjectFolderNotFound>
  readonly list: (
    caller: Caller,
    params: { readonly scope: FileScope; readonly projectId?: string | undefined; readonly path?: string | undefined }
  ) => Effect.Effect<ReadonlyArray<FileEntry>, Refused | ScopeMismatch | UserScopeOwnerOnly | ProjectFolderNotFound>
  /** Files and folders whose name holds the words, across every scope of the caller. */
  readonly search: (caller: Caller, query: string) => Effect.Effect<ReadonlyArray<FileEntry>>
  /** Opens the file an id names, for the caller: their own scopes only. A folder is not a file. */
  readonly open: (caller: Caller, id: string) => Effect.Effect<OpenedFile, Refused | NotAFileId>
  /** A small file whole, as text when it is UTF-8 without NUL bytes, else as base64. */
  readonly read: (caller: Caller, id: string) => Effect.Effect<FileContent, Refused | NotAFileId | FileTooLarge>
  /** The owner's folder on this machine (FILES_ROOT), or null when none is set. */
  readonly ownersFolder: string | null
}

export class FileAccess extends Context.Tag("files/FileAccess")<FileAccess, FileAccessShape>() {}
