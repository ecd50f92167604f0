/**
 * The files records (the second document's FileEntry and FileScope) and the query shapes of the
 * files routes. A file id is opaque to callers (contract/file-ids.ts makes it); `path` is
 * relative to its scope's root, never a path on the node's disk. Plain schemas: the web app
 * imports them through the HTTP contract.
 */
import * as Schema from "effect/Schema"

export const fileScopes = ["user", "project", "upload"] as const
export const FileScope = Schema.Literal(...fileScopes)
export type FileScope = typeof FileScope.Type

export const FileEntry = Schema.Struct({
  id: Schema.String,
  beingId: Schema.String,
  /** Relative to its scope's root (a project's workspace, the caller's uploads, the owner's folder). */
  path: Schema.String,
  name: Schema.String,
  /** Lowercase, without the dot; '' for folders and names without one. */
  ext: Schema.String,
  size: Schema.Number,
  mtime: Schema.String,
  isDir: Schema.optionalWith(Schema.Boolean, { default: () => false }),
  /** Written by whoever indexes the file (the twin's files provider); null until then. */
  summary: Schema.optionalWith(Schema.NullOr(Schema.String), { default: () => null }),
  scope: FileScope,
  projectId: Schema.optionalWith(Schema.NullOr(Schema.String), { default: () => null })
})
export type FileEntry = typeof FileEntry.Type

/** Longest file id taken: a scope, a project id and a path of up to 1024 characters, base64url. */
export const MAX_FILE_ID_LENGTH = 1500

export const FileId = Schema.String.pipe(
  Schema.pattern(/^[A-Za-z0-9_-]+$/, { message: () => "a file id as a listing or search gave it" }),
  Schema.maxLength(MAX_FILE_ID_LENGTH)
)

export const FileListParams = Schema.Struct({
  scope: FileScope,
  /** Required with scope `project`, refused with the others. */
  projectId: Schema.optional(
    Schema.String.pipe(Schema.pattern(/^[A-Za-z0-9_-]{1,128}$/, { message: () => "a project id" }))
  ),
  /** A folder relative to the scope's root; '' (the default) is the root. */
  path: Schema.optional(Schema.String.pipe(Schema.maxLength(1024)))
})

export const FileSearchParams = Schema.Struct({
  q: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200))
})

export const FileIdParams = Schema.Struct({ id: FileId })

/** Text comes back as `content` (UTF-8), anything else as `base64`. */
export const FileContent = Schema.Union(
  Schema.Struct({ content: Schema.String, mime: Schema.String }),
  Schema.Struct({ base64: Schema.String, mime: Schema.String })
)
export type FileContent = typeof FileContent.Type

/** The most `GET /api/files/read` answers whole in JSON; a larger file is for download. */
export const MAX_READ_BYTES = 1024 * 1024
/** Entries one listing answers, and files one search answers. */
export const MAX_LIST_ENTRIES = 1000
export const MAX_SEARCH_RESULTS = 100
/** Files and folders in one upload request. */
export const MAX_UPLOAD_FILES = 20
/** The upload route's default body limit and the setting that overrides it. */
export const DEFAULT_MAX_UPLOAD_BYTES = 25 * 1024 * 1024
export const MAX_UPLOAD_BYTES_SETTING = "MAX_UPLOAD_BYTES"
