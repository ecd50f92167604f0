/**
 * studio.author_skill_bundle: a plugin bundle proposed for the owner to review, written into the
 * file root as `plugin.json`, the proposed source (`index.js`) and a REVIEW.md saying what it
 * would be granted. It is never registered, imported or run (installed is always false): the
 * source is only text here, and installing stays a separate human act with grants. The manifest
 * is built from the input and checked by the node's own manifest rules before anything is written.
 */
import { createHash } from "node:crypto"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import { CapabilityKind } from "../../kernel/contract/capabilities.ts"
import { ExtensionId, Namespace, PluginCapability } from "../../kernel/contract/manifest.ts"
import { defineSkill, fileRootOf, withDefault } from "../../kernel/extensions/skill.ts"
import {
  BundleFolder,
  BundleReport,
  checkManifest,
  grantsSection,
  manifestFileName,
  manifestText,
  refused,
  writeBundle
} from "./bundle-files.ts"

const ProposedSkill = Schema.Struct({
  id: ExtensionId,
  title: Schema.optional(Schema.String.pipe(Schema.maxLength(120))),
  description: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(2000)),
  uses: withDefault(Schema.Array(CapabilityKind), [])
})

const Input = Schema.Struct({
  namespace: Namespace.annotations({ description: "The plugin's namespace: its skills are named <namespace>.<id>." }),
  name: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(120)),
  description: Schema.String.pipe(Schema.maxLength(2000)),
  skills: Schema.Array(ProposedSkill).pipe(Schema.minItems(1), Schema.maxItems(16)),
  capabilities: withDefault(Schema.Array(PluginCapability), []),
  source: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200_000)).annotations({
    description: "The proposed source of index.js (an ES module exporting activate); saved as text, never run."
  }),
  folder: Schema.optional(BundleFolder)
})

const reviewOf = (
  manifest: ReturnType<typeof manifestOf>,
  checked: Parameters<typeof grantsSection>[0],
  source: string
) =>
  [
    `# Review: ${manifest.name} (${manifest.id})`,
    "",
    "A plugin bundle proposed by a studio agent. It is **not installed**: nothing here was registered, imported or run.",
    "Installing is your act: move this folder into the node's plugin folder and install it from the plugins screen,",
    "granting only what you accept.",
    "",
    manifest.description === "" ? "" : `${manifest.description}\n`,
    "## Skills it would add",
    "",
    ...checked.extensions.map(
      (extension) =>
        `- \`${checked.namespace}.${extension.id}\`${extension.description === undefined ? "" : `: ${extension.description}`}` +
        ` (uses ${extension.uses.length === 0 ? "nothing" : extension.uses.join(", ")})`
    ),
    "",
    grantsSection(checked),
    "",
    "## The proposed source",
    "",
    `index.js: ${source.split("\n").length} lines, SHA-256 ${createHash("sha256").update(source).digest("hex")}.`,
    "",
    "Before installing, check that it:",
    "",
    "- touches nothing beyond the capabilities above (it runs in the node's process);",
    "- sends nothing off the node unless it asks for network;",
    "- validates its inputs and says plainly when it refuses.",
    ""
  ].join("\n")

const manifestOf = (input: typeof Input.Type) => ({
  apiVersion: "1.0",
  id: `@studio/${input.namespace}`,
  version: "0.1.0",
  namespace: input.namespace,
  name: input.name,
  description: input.description,
  author: "studio",
  main: "index.js",
  capabilities: input.capabilities,
  extensions: input.skills.map((skill) => ({
    kind: "skill" as const,
    id: skill.id,
    ...(skill.title === undefined ? {} : { title: skill.title }),
    description: skill.description,
    uses: skill.uses
  }))
})

export const authorSkillBundle = defineSkill({
  description:
    "Propose a plugin bundle of new skills for the owner to review: plugin.json, the proposed source (index.js) " +
    "and a REVIEW.md saying what installing it would grant, written into the file root. It is never installed, imported " +
    "or run here (installed is always false); the manifest must pass the node's plugin rules or nothing is written.",
  input: Input,
  output: BundleReport,
  run: async (input, context) => {
    const root = fileRootOf(context)
    const manifest = manifestOf(input)
    const checked = checkManifest(manifest)
    const folder = input.folder ?? `bundles/${input.namespace}`
    const outcome = Either.isLeft(checked)
      ? Either.left(checked.left)
      : await writeBundle(root, folder, [
          [manifestFileName, manifestText(manifest)],
          ["index.js", input.source],
          ["REVIEW.md", reviewOf(manifest, checked.right, input.source)]
        ])
    const report: BundleReport = Either.isLeft(outcome)
      ? refused(input.name, outcome.left)
      : {
          authored: true,
          installed: false,
          id: manifest.id,
          name: input.name,
          path: outcome.right.path,
          files: outcome.right.files,
          note: `Wrote the bundle ${manifest.id} to ${outcome.right.path} for review; it is not installed.`
        }
    context.trace({
      kind: report.authored ? "message" : "error",
      text: `skill bundle ${report.authored ? "written" : "refused"}: ${report.note}`,
      data: report
    })
    return report
  }
})
