/**
 * The declared kinds beside `module`: a plugin's generator, widget, viewer and editor are written
 * in its plugin.json, not contributed by its code, so they load without running anything. A
 * widget, viewer or editor is an HTML document in the plugin's folder, framed like a module
 * (kernel/contract/modules.ts); a viewer or editor also names the file types it opens. A
 * generator carries the same body the generators route takes (checked by the generators
 * feature, which owns that shape). A declaration that does not fit is left out with a log line;
 * the rest of the plugin loads.
 */
import * as Schema from "effect/Schema"
import { ModuleDocumentPath, ModuleIcon } from "./modules.ts"

/** The kinds read from the manifest rather than contributed by code. */
export const declaredKinds = ["module", "generator", "widget", "viewer", "editor"] as const
export type DeclaredKind = (typeof declaredKinds)[number]
export const isDeclaredKind = (kind: string): kind is DeclaredKind =>
  (declaredKinds as ReadonlyArray<string>).includes(kind)

/** The kinds whose document is served to a sandboxed frame and talks through the bridge. */
export const framedKinds = ["module", "widget", "viewer", "editor"] as const
export type FramedKind = (typeof framedKinds)[number]

/** `.md`, `.csv`: lowercase, with its dot. */
const FileExtension = Schema.String.pipe(
  Schema.filter(
    (value) =>
      /^\.[a-z0-9][a-z0-9_+-]{0,15}$/.test(value) ||
      `a file extension like ".md" (lowercase, with its dot), got ${JSON.stringify(value.slice(0, 40))}`
  )
)
/** `text/markdown`, `image/*`. */
const MediaType = Schema.String.pipe(
  Schema.filter(
    (value) =>
      (/^[a-z0-9][a-z0-9.+-]*\/(\*|[a-z0-9][a-z0-9.+-]*)$/.test(value) && value.length <= 100) ||
      `a media type like "text/markdown" or "image/*", got ${JSON.stringify(value.slice(0, 100))}`
  )
)

export const WidgetFields = Schema.Struct({
  document: ModuleDocumentPath,
  icon: Schema.optional(ModuleIcon)
})

/** What a viewer or editor opens: at least one extension or media type. */
export const FileTypes = Schema.Struct({
  extensions: Schema.optionalWith(Schema.Array(FileExtension).pipe(Schema.maxItems(32)), { default: () => [] }),
  mediaTypes: Schema.optionalWith(Schema.Array(MediaType).pipe(Schema.maxItems(32)), { default: () => [] })
}).pipe(
  Schema.filter(
    (types) =>
      types.extensions.length + types.mediaTypes.length > 0 || "fileTypes names at least one extension or media type"
  )
)
export type FileTypes = typeof FileTypes.Type

export const FileHandlerFields = Schema.Struct({
  document: ModuleDocumentPath,
  icon: Schema.optional(ModuleIcon),
  fileTypes: FileTypes
})

/** The generator's body, as the generators route takes it; its meaning is checked by the generators feature. */
export const GeneratorFields = Schema.Struct({
  generator: Schema.Record({ key: Schema.String, value: Schema.Unknown })
})

/** Whether a file (by name and media type) is of one of `types`. */
export const handlesFile = (types: FileTypes, name: string, mediaType: string | null): boolean => {
  const lower = name.toLowerCase()
  if (types.extensions.some((extension) => lower.endsWith(extension))) return true
  if (mediaType === null) return false
  const media = mediaType.split(";")[0]!.trim().toLowerCase()
  return types.mediaTypes.some((type) => type === media || (type.endsWith("/*") && media.startsWith(type.slice(0, -1))))
}

/** The largest file a viewer or editor is handed, and the largest an editor saves back. */
export const maxHandledFileBytes = 256 * 1024
