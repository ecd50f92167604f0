/**
 * A plugin's modules, registered from its manifest: each one's HTML document is read from the
 * plugin's folder when the plugin loads (install or boot), so a missing or oversized document
 * refuses the install like any other fault of the plugin, and serving it later reads no disk.
 * The file must be a regular file whose real path lies inside the folder (no symlink out).
 */
import * as Effect from "effect/Effect"
import { readFile, realpath, stat } from "node:fs/promises"
import { isAbsolute, relative, resolve, sep } from "node:path"
import type { CapabilityKind } from "../contract/capabilities.ts"
import type { PluginManifest } from "../contract/manifest.ts"
import { ModuleFields } from "../contract/modules.ts"
import * as Schema from "effect/Schema"
import { activationFailed, contributionOf } from "./activation.ts"
import type { CapabilityAdapterFactories } from "./context.ts"
import type { AnyContribution } from "./registry.ts"
import { spanNamed } from "../spans.ts"

/** A module's document: a page of markup and inline script, not an application bundle. */
export const maxModuleDocumentBytes = 512 * 1024

const decodeFields = Schema.decodeUnknownSync(ModuleFields)

const inside = (path: string, root: string) => {
  const within = relative(root, path)
  return within !== "" && within !== ".." && !within.startsWith(`..${sep}`) && !isAbsolute(within)
}

/** A framed document's text (a module's, a widget's, a viewer's or an editor's), read under the rules above. */
export const readDocument = async (dir: string, document: string): Promise<string> => {
  const path = resolve(dir, document)
  const [real, realDir] = await Promise.all([realpath(path), realpath(dir)]).catch(() => {
    throw new Error(`its document ${document} is not in the plugin folder`)
  })
  if (!inside(path, resolve(dir)) || !inside(real, realDir))
    throw new Error(`its document ${document} lies outside the plugin folder`)
  const info = await stat(real)
  if (!info.isFile()) throw new Error(`its document ${document} is not a file`)
  if (info.size > maxModuleDocumentBytes) {
    throw new Error(`its document ${document} is larger than ${maxModuleDocumentBytes / 1024} KB`)
  }
  return readFile(real, "utf8")
}

export const moduleContributions = (
  manifest: PluginManifest,
  dir: string,
  granted: ReadonlyArray<CapabilityKind>,
  factories: CapabilityAdapterFactories
): Effect.Effect<ReadonlyArray<AnyContribution>, ReturnType<typeof activationFailed>> =>
  Effect.forEach(
    manifest.extensions.filter((extension) => extension.kind === "module"),
    (declaration) =>
      Effect.tryPromise({
        try: async () => {
          // The manifest's own filter has checked these fields already.
          const fields = decodeFields(declaration)
          const html = await readDocument(dir, fields.document)
          return contributionOf(
            manifest,
            declaration,
            { document: fields.document, icon: fields.icon ?? null, html },
            granted,
            factories
          )
        },
        catch: (cause) => activationFailed(manifest, cause instanceof Error ? cause.message : String(cause))
      })
  ).pipe(spanNamed("plugins.moduleDocuments", { attributes: { id: manifest.id } }))
