/**
 * What a plugin hands the host for each kind of extension it declares. A kind whose feature is
 * not written yet takes any record; that feature narrows it here when it lands, so every plugin
 * (built-in or not) is held to the same shape.
 */
import * as Schema from "effect/Schema"
import type { ExtensionKind } from "../contract/manifest.ts"
import { SkillContribution } from "./skill.ts"
import { Theme } from "../contract/theme.ts"
import { FileTypes } from "../contract/plugin-kinds.ts"

const Untyped = Schema.Record({ key: Schema.String, value: Schema.Unknown })

/**
 * A module is not handed over by code: the host reads its declaration and its document from the
 * plugin's folder when the plugin loads (module-documents.ts), so a change to the file shows at
 * the next load, like the code.
 */
export const ModuleContribution = Schema.Struct({
  document: Schema.String,
  icon: Schema.NullOr(Schema.String),
  /** The document's text as read at load. */
  html: Schema.String
})
export type ModuleContribution = typeof ModuleContribution.Type

/** A widget is framed like a module: the same fields, read the same way (declared-kinds.ts). */
export const WidgetContribution = ModuleContribution
export type WidgetContribution = ModuleContribution

/** A viewer or editor: a framed document and the file types it opens. */
export const FileHandlerContribution = Schema.Struct({ ...ModuleContribution.fields, fileTypes: FileTypes })
export type FileHandlerContribution = typeof FileHandlerContribution.Type

/** A generator's body as declared; the generators feature decodes and checks it (GeneratorInput). */
export const GeneratorContribution = Schema.Struct({ generator: Untyped })
export type GeneratorContribution = typeof GeneratorContribution.Type

export const contributionSchemas = {
  /** A typed function; its full shape and run context are in skill.ts. */
  skill: SkillContribution,
  generator: GeneratorContribution,
  widget: WidgetContribution,
  integration: Untyped,
  viewer: FileHandlerContribution,
  editor: FileHandlerContribution,
  theme: Theme,
  module: ModuleContribution
} satisfies { readonly [K in ExtensionKind]: Schema.Schema.Any }

export type ContributionTypes = { readonly [K in ExtensionKind]: Schema.Schema.Type<(typeof contributionSchemas)[K]> }
