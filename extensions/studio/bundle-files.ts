/**
 * What the two bundle-authoring skills share: a bundle is a folder of text files in the call's
 * file root, checked whole before a byte is written (every path confined to the root, the
 * manifest decoded by the node's own manifest schema, the namespace one a third-party plugin may
 * take), so a refused bundle leaves nothing on disk. Nothing here imports, registers or runs
 * what it writes: installing stays the owner's act (POST /api/plugins with grants).
 */
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import { capabilityNotes } from "../../kernel/contract/capabilities.ts"
import type { PluginManifest } from "../../kernel/contract/manifest.ts"
import type { FileRoot } from "../../kernel/extensions/file-root.ts"
import { reservedNamespaces } from "../plugins/contract/reserved-namespaces.ts"
import { decodeManifestEither, manifestFileName } from "../../kernel/extensions/read-manifest.ts"

/** The report both skills answer: the pipeline's authored check reads authored, id, name and note. */
export const BundleReport = Schema.Struct({
  authored: Schema.Boolean,
  installed: Schema.Literal(false).annotations({ description: "Always false: installing stays the owner's act." }),
  id: Schema.NullOr(Schema.String).annotations({
    description: "The bundle's plugin id; null when nothing was written."
  }),
  name: Schema.String,
  path: Schema.NullOr(Schema.String).annotations({
    description: "The bundle's folder, relative to the root; null when nothing was written."
  }),
  files: Schema.Array(Schema.String).annotations({ description: "Every file written, relative to the root." }),
  note: Schema.String
})
export type BundleReport = typeof BundleReport.Type

export const BundleFolder = Schema.String.pipe(
  Schema.filter((path) => path.trim() !== "" || "name the bundle's folder"),
  Schema.maxLength(200)
).annotations({
  description: "The folder the bundle is written to, relative to the root (default bundles/<namespace>)."
})

/** A bundle is a handful of small text files; these bounds keep one call from filling a disk. */
export const maxBundleFiles = 32
export const maxBundleBytes = 512 * 1024

export const refused = (name: string, issues: ReadonlyArray<string>): BundleReport => ({
  authored: false,
  installed: false,
  id: null,
  name,
  path: null,
  files: [],
  note: `Nothing was written: ${issues.join(" ")}`
})

/** The manifest decoded by the node's own schema, and the namespace rule an install would apply; issues in words. */
export const checkManifest = (json: unknown): Either.Either<PluginManifest, ReadonlyArray<string>> => {
  const decoded = decodeManifestEither(json)
  if (Either.isLeft(decoded)) {
    const details = decoded.left.details as { issues?: ReadonlyArray<{ path: string; message: string }> } | undefined
    const issues = details?.issues?.map((issue) => `${issue.path === "" ? "" : `${issue.path}: `}${issue.message}.`)
    return Either.left(issues !== undefined && issues.length > 0 ? issues : [decoded.left.message])
  }
  const manifest = decoded.right
  if (reservedNamespaces.has(manifest.namespace)) {
    return Either.left([
      `The namespace "${manifest.namespace}" is reserved for the node's built-ins, so the bundle could never be installed.`
    ])
  }
  return Either.right(manifest)
}

const byteLength = (text: string) => Buffer.byteLength(text, "utf8")

/**
 * Writes the files (relative to `folder`) once every path is confined to the root and the sizes
 * fit; answers the written paths, or the issues with nothing written.
 */
export const writeBundle = async (
  root: FileRoot,
  folder: string,
  files: ReadonlyArray<readonly [string, string]>
): Promise<Either.Either<{ readonly path: string; readonly files: ReadonlyArray<string> }, ReadonlyArray<string>>> => {
  if (files.length > maxBundleFiles)
    return Either.left([`A bundle holds at most ${maxBundleFiles} files; this one has ${files.length}.`])
  const total = files.reduce((sum, [, text]) => sum + byteLength(text), 0)
  if (total > maxBundleBytes)
    return Either.left([
      `A bundle is at most ${maxBundleBytes / 1024} KB of text; this one is ${Math.ceil(total / 1024)} KB.`
    ])
  const issues: Array<string> = []
  const targets: Array<readonly [string, string]> = []
  const base = await root.resolve(folder).catch((error: Error) => {
    issues.push(error.message)
    return null
  })
  if (base === null) return Either.left(issues)
  for (const [name, text] of files) {
    const resolved = await root.resolve(`${base.path}/${name}`).catch((error: Error) => {
      issues.push(error.message)
      return null
    })
    if (resolved !== null) targets.push([resolved.path, text])
  }
  if (issues.length > 0) return Either.left(issues)
  const written: Array<string> = []
  for (const [path, text] of targets) written.push((await root.write(path, new TextEncoder().encode(text))).path)
  return Either.right({ path: base.path, files: written })
}

export const manifestText = (manifest: unknown) => `${JSON.stringify(manifest, null, 2)}\n`

export { manifestFileName }

/** The part of REVIEW.md that says what installing would grant, in the install screen's own words. */
export const grantsSection = (manifest: PluginManifest): string => {
  const capabilities =
    manifest.capabilities.length === 0
      ? ["- None: it asks for no capability."]
      : manifest.capabilities.map(
          (capability) =>
            `- **${capability.kind}**: ${capabilityNotes[capability.kind]}${capability.reason === undefined ? "" : ` Its reason: "${capability.reason}"`}`
        )
  const worldActing = manifest.capabilities.some((capability) => capability.kind === "world-acting")
  return [
    "## What installing it would grant",
    "",
    ...capabilities,
    "",
    worldActing ? "It acts on the world: each such act would still wait for your approval.\n" : "",
    "A plugin runs inside the node's process with every capability you grant it. Read the source before installing."
  ].join("\n")
}
