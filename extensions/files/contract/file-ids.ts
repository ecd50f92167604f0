/**
 * What a file id is: its scope, its project (scope `project`) and its path relative to that
 * scope's root, base64url-encoded into one opaque token. An id names no being and no place on
 * disk: it is resolved against the caller's own scopes (their uploads, their projects' workspaces,
 * the owner's folder), through the same confinement as every file path (no `..`, no absolute path,
 * no link out), so a crafted id can reach nothing a listing of the caller's could not.
 */
import * as Either from "effect/Either"
import * as Encoding from "effect/Encoding"
import type { FileScope } from "./records.ts"

export interface FileRef {
  readonly scope: FileScope
  readonly projectId: string | null
  /** Relative to the scope's root, forward slashes. */
  readonly path: string
}

export const encodeFileId = (ref: FileRef): string =>
  Encoding.encodeBase64Url(
    ref.scope === "project" ? `project:${ref.projectId}:${ref.path}` : `${ref.scope}:${ref.path}`
  )

/** The reference an id carries; null for anything no listing could have given. */
export const decodeFileId = (id: string): FileRef | null => {
  const decoded = Encoding.decodeBase64UrlString(id)
  if (Either.isLeft(decoded)) return null
  const text = decoded.right
  const colon = text.indexOf(":")
  const scope = text.slice(0, colon)
  const rest = text.slice(colon + 1)
  if (colon < 0) return null
  if (scope === "upload" || scope === "user") return { scope, projectId: null, path: rest }
  if (scope !== "project") return null
  const second = rest.indexOf(":")
  const projectId = rest.slice(0, second)
  return second > 0 && /^[A-Za-z0-9_-]{1,128}$/.test(projectId)
    ? { scope, projectId, path: rest.slice(second + 1) }
    : null
}
