/**
 * studio.author_module: a module bundle (a plugin that contributes a whole place, its interface
 * an HTML document the node renders in an isolated frame) written into the file root. The
 * manifest is given as text: it is parsed and validated before a byte is written (the node's
 * plugin manifest rules, a namespace a third-party plugin may take, and at least one extension
 * of kind `module` whose `document` is an .html file of the bundle, `main` one too). The module
 * is declared exactly as the installer reads it, `extensions: [{ kind: "module", id, title, uses,
 * document }]`, so the folder installs as it is and mounts /m/<namespace>.<id>; a manifest with
 * the older top-level `module` object is refused with the form to use. A refused module answers
 * authored false with every issue in `note`, and nothing is on disk. Like the skill bundle it is
 * never installed here, and it is outside the built-in catalogue, so no generator may declare it.
 */
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { ModuleFields } from "../../kernel/contract/modules.ts"
import { defineSkill, fileRootOf } from "../../kernel/extensions/skill.ts"
import {
  BundleFolder,
  BundleReport,
  checkManifest,
  manifestFileName,
  maxBundleFiles,
  refused,
  writeBundle
} from "./bundle-files.ts"

const Input = Schema.Struct({
  manifest: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(64 * 1024)).annotations({
    description:
      "plugin.json as text: a plugin manifest whose extensions declare the module, " +
      '{ kind: "module", id, title, uses, document } (document an .html file of the bundle; the place is /m/<namespace>.<id>).'
  }),
  files: Schema.Record({ key: Schema.String, value: Schema.String }).annotations({
    description: "The bundle's other files by path inside the bundle (the interface .html at least), as text."
  }),
  folder: Schema.optional(BundleFolder)
})

/** The one form a module takes in plugin.json (kernel/contract/modules.ts), quoted in refusals. */
const moduleForm = `{ "kind": "module", "id": "<route>", "title": "<title>", "uses": [], "document": "<file>.html" }`

// The manifest's own filter has checked these fields; this reads the document's path from them.
const decodeFields = Schema.decodeUnknownOption(ModuleFields)

const normalised = (path: string) => path.replaceAll("\\", "/").replace(/^\.\//, "")

/** Every issue of the module, or its manifest's id and name. */
const checkModule = (text: string, files: Readonly<Record<string, string>>) => {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    return Either.left([`plugin.json is not valid JSON: ${(error as Error).message}.`])
  }
  const issues: Array<string> = []
  const manifest = checkManifest(json)
  if (Either.isLeft(manifest)) issues.push(...manifest.left)
  const given = new Set(Object.keys(files).map(normalised))
  if (given.has(manifestFileName)) issues.push(`Give ${manifestFileName} as the manifest, not among the files.`)
  if (typeof json === "object" && json !== null && "module" in json) {
    issues.push(
      `Declare the module in extensions, as the installer reads it: ${moduleForm}; not as a top-level "module" object.`
    )
  }
  if (Either.isRight(manifest)) {
    const modules = manifest.right.extensions.filter((extension) => extension.kind === "module")
    if (modules.length === 0) issues.push(`extensions: declare the module's place, ${moduleForm}.`)
    for (const declared of modules) {
      const document = Option.getOrNull(Option.map(decodeFields(declared), (fields) => fields.document))
      if (document !== null && !given.has(normalised(document))) {
        issues.push(`The module ${declared.id} names its document ${document}, which is not among the bundle's files.`)
      }
    }
  }
  if (Either.isRight(manifest) && manifest.right.main !== null && !given.has(normalised(manifest.right.main))) {
    issues.push(`main names ${manifest.right.main}, which is not among the bundle's files.`)
  }
  if (given.size + 1 > maxBundleFiles) issues.push(`A bundle holds at most ${maxBundleFiles} files.`)
  if (issues.length > 0 || Either.isLeft(manifest)) return Either.left(issues)
  return Either.right({ id: manifest.right.id, name: manifest.right.name, namespace: manifest.right.namespace })
}

const nameIn = (text: string) => {
  try {
    const name = (JSON.parse(text) as { name?: unknown }).name
    return typeof name === "string" ? name : ""
  } catch {
    return ""
  }
}

export const authorModule = defineSkill({
  description:
    "Author a module bundle (a plugin contributing a place whose interface is an HTML page the node frames in " +
    "isolation) into the file root: plugin.json given as text, declaring the module in extensions as " +
    '{ kind: "module", id, title, uses, document } (the place is /m/<namespace>.<id>), and ' +
    "the bundle's files. The manifest is validated before anything is written: a refused module writes nothing and " +
    "names every issue. It is never installed here.",
  input: Input,
  output: BundleReport,
  run: async (input, context) => {
    const root = fileRootOf(context)
    const checked = checkModule(input.manifest, input.files)
    let report: BundleReport
    if (Either.isLeft(checked)) {
      report = refused(nameIn(input.manifest), checked.left)
    } else {
      const module = checked.right
      const written = await writeBundle(root, input.folder ?? `modules/${module.namespace}`, [
        [manifestFileName, input.manifest.endsWith("\n") ? input.manifest : `${input.manifest}\n`],
        ...Object.entries(input.files).map(([path, text]) => [normalised(path), text] as const)
      ])
      report = Either.isLeft(written)
        ? refused(module.name, written.left)
        : {
            authored: true,
            installed: false,
            id: module.id,
            name: module.name,
            path: written.right.path,
            files: written.right.files,
            note: `Wrote the module ${module.id} to ${written.right.path}; it is not installed.`
          }
    }
    context.trace({
      kind: report.authored ? "message" : "error",
      text: `module bundle ${report.authored ? "written" : "refused"}: ${report.note}`,
      data: report
    })
    return report
  }
})
