/**
 * A module: an extension of kind `module` that contributes a place of the web app, mounted at
 * `/m/<namespace>.<id>` with a rail item. Beyond the fields every extension has (`id`, `title`,
 * `uses`), its declaration in plugin.json names its HTML document in the plugin's folder and may
 * give the rail an icon. Nothing of it runs on the node: the document is served as it is (with
 * the bridge script put in) to a sandboxed frame, and reaches the node only through the bridge.
 */
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"

/** A path inside the plugin folder to an .html file: not absolute, never climbing out. */
export const ModuleDocumentPath = Schema.String.pipe(
  Schema.filter(
    (value) =>
      (/\.html?$/i.test(value) &&
        value.length <= 200 &&
        !/^([/\\]|[A-Za-z]:)/.test(value) &&
        !value.split(/[/\\]/).includes("..")) ||
      `a module's document must be an .html file inside the plugin folder (a relative path, at most 200 characters), got ${JSON.stringify(value.slice(0, 200))}`
  )
)

/**
 * The rail item's icon: SVG path data for a 24×24 view box, as Material Design Icons publish
 * them. Only path commands and numbers, so it draws a shape and can carry nothing else.
 */
export const ModuleIcon = Schema.String.pipe(
  Schema.filter(
    (value) =>
      (/^[MmLlHhVvCcSsQqTtAaZz0-9.,\s-]+$/.test(value) && value.length <= 4000) ||
      "a module's icon must be SVG path data (commands and numbers only, at most 4000 characters)"
  )
)

/** The fields a module declares beside `kind`, `id`, `title` and `uses`. */
export const ModuleFields = Schema.Struct({
  document: ModuleDocumentPath,
  icon: Schema.optional(ModuleIcon)
})
export type ModuleFields = typeof ModuleFields.Type

const decodeFields = Schema.decodeUnknownEither(ModuleFields)

/** The manifest's issues with the module declared at `extensions[index]`, for the manifest's own filter. */
export const moduleDeclarationIssues = (extension: unknown, index: number): Array<Schema.FilterIssue> => {
  const decoded = decodeFields(extension, { errors: "all" })
  if (decoded._tag === "Right") return []
  return ParseResult.ArrayFormatter.formatErrorSync(decoded.left).map((issue) => ({
    path: ["extensions", index, ...issue.path.map(String)],
    message: issue.message
  }))
}

/** The place of a module's full name (`<namespace>.<id>`) in the web app. */
export const modulePlacePath = (name: string) => `/m/${name}`
