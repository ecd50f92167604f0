/**
 * A plugin's generators, widgets, viewers and editors, read from its manifest when it loads
 * (install or boot). Unlike a module, whose fault refuses the install, a declaration of these
 * kinds that does not fit (a missing document, a wrong file type, no generator body) is left
 * out with a log line and the rest of the plugin loads: they are extras a plugin offers, and
 * one broken extra should not take its skills and modules away.
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import type { CapabilityKind } from "../contract/capabilities.ts"
import type { PluginExtension, PluginManifest } from "../contract/manifest.ts"
import { FileHandlerFields, GeneratorFields, WidgetFields } from "../contract/plugin-kinds.ts"
import { contributionOf } from "./activation.ts"
import type { CapabilityAdapterFactories } from "./context.ts"
import { readDocument } from "./module-documents.ts"
import type { AnyContribution } from "./registry.ts"
import { spanNamed } from "../spans.ts"

const problemOf = (error: ParseResult.ParseError) => ParseResult.TreeFormatter.formatErrorSync(error).slice(0, 300)

const decodeWith = <A, I>(schema: Schema.Schema<A, I>, declaration: PluginExtension) =>
  Either.mapLeft(Schema.decodeUnknownEither(schema)(declaration, { errors: "all" }), problemOf)

/** The value of one declaration, or why it is left out. */
const declaredValue = (declaration: PluginExtension, dir: string): Promise<unknown> => {
  switch (declaration.kind) {
    case "generator": {
      const fields = decodeWith(GeneratorFields, declaration)
      if (Either.isLeft(fields)) return Promise.reject(new Error(fields.left))
      return Promise.resolve({ generator: fields.right.generator })
    }
    case "widget": {
      const fields = decodeWith(WidgetFields, declaration)
      if (Either.isLeft(fields)) return Promise.reject(new Error(fields.left))
      return readDocument(dir, fields.right.document).then((html) => ({
        document: fields.right.document,
        icon: fields.right.icon ?? null,
        html
      }))
    }
    default: {
      const fields = decodeWith(FileHandlerFields, declaration)
      if (Either.isLeft(fields)) return Promise.reject(new Error(fields.left))
      const { document, icon, fileTypes } = fields.right
      return readDocument(dir, document).then((html) => ({ document, icon: icon ?? null, html, fileTypes }))
    }
  }
}

const kinds: ReadonlyArray<string> = ["generator", "widget", "viewer", "editor"]

export const declaredContributions = (
  manifest: PluginManifest,
  dir: string,
  granted: ReadonlyArray<CapabilityKind>,
  factories: CapabilityAdapterFactories
): Effect.Effect<ReadonlyArray<AnyContribution>> =>
  Effect.forEach(
    manifest.extensions.filter((extension) => kinds.includes(extension.kind)),
    (declaration) =>
      Effect.promise(
        (): Promise<Either.Either<AnyContribution, string>> =>
          declaredValue(declaration, dir).then(
            (value) => Either.right(contributionOf(manifest, declaration, value, granted, factories)),
            (cause: unknown) => Either.left(cause instanceof Error ? cause.message : String(cause))
          )
      ).pipe(
        Effect.flatMap((outcome) =>
          Either.isRight(outcome)
            ? Effect.succeed(outcome.right)
            : Effect.as(
                Effect.logWarning(
                  `plugin ${manifest.id}: its ${declaration.kind} "${declaration.id}" is left out: ${outcome.left}`
                ),
                undefined
              )
        )
      )
  ).pipe(
    Effect.map((values) => values.filter((value): value is AnyContribution => value !== undefined)),
    spanNamed("plugins.declaredKinds", { attributes: { id: manifest.id } })
  )
