/**
 * Running a plugin's `activate` and collecting what it contributes. Nothing reaches a registry
 * here: the contributions come back as one batch the host registers only if activation
 * succeeded, which keeps an install all-or-nothing.
 */
import * as Effect from "effect/Effect"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { ActivationFailed } from "../contract/plugin-errors.ts"
import type { CapabilityKind } from "../contract/capabilities.ts"
import {
  grantedAdapters,
  narrowAdapters,
  type Activate,
  type CallScope,
  type CapabilityAdapterFactories,
  type PluginContext,
  type PluginIdentity
} from "./context.ts"
import type { GrantedAdapters } from "./adapters.ts"
import { contributionSchemas } from "./contributions.ts"
import { isDeclaredKind } from "../contract/plugin-kinds.ts"
import type { ExtensionKind, PluginExtension, PluginManifest } from "../contract/manifest.ts"
import { contributionName, type AnyContribution } from "./registry.ts"

const activationTimeout = "10 seconds"

const reasonOf = (cause: unknown) => (cause instanceof Error ? cause.message : String(cause))

export const activationFailed = (manifest: PluginManifest, reason: string) =>
  new ActivationFailed({
    message: `${manifest.id} failed to activate: ${reason}`,
    details: { id: manifest.id }
  })

const shapeProblem = (kind: ExtensionKind, value: unknown) => {
  const schema: Schema.Schema.AnyNoContext = contributionSchemas[kind]
  const result = Schema.validateEither(schema)(value)
  return result._tag === "Left" ? ParseResult.TreeFormatter.formatErrorSync(result.left) : undefined
}

export const identityOf = (manifest: PluginManifest): PluginIdentity =>
  Object.freeze({ id: manifest.id, namespace: manifest.namespace, version: manifest.version })

/** A declared extension with its value and the context it is handed: the plugin's adapters narrowed to its `uses`. */
export const contributionOf = (
  manifest: PluginManifest,
  declaration: PluginExtension,
  value: unknown,
  granted: ReadonlyArray<CapabilityKind>,
  factories: CapabilityAdapterFactories,
  plugin: PluginIdentity = identityOf(manifest),
  /** The plugin's adapters for no call, when already built (activate's). */
  pluginAdapters: GrantedAdapters = grantedAdapters(granted, factories, plugin)
): AnyContribution => {
  const { kind, id } = declaration
  const name = contributionName(manifest.namespace, id)
  const used = granted.filter((capability) => declaration.uses.includes(capability))
  const context = Object.freeze({
    plugin,
    extension: Object.freeze({ kind, id, name }),
    adapters: narrowAdapters(pluginAdapters, declaration.uses),
    adaptersFor: (scope: CallScope) => grantedAdapters(used, factories, plugin, scope)
  })
  return { kind, name, pluginId: manifest.id, declaration, value, context } as AnyContribution
}

export const activatePlugin = (options: {
  readonly manifest: PluginManifest
  readonly activate: Activate
  readonly granted: ReadonlyArray<CapabilityKind>
  readonly adapters: CapabilityAdapterFactories
}): Effect.Effect<ReadonlyArray<AnyContribution>, ActivationFailed> =>
  Effect.suspend(() => {
    const { manifest } = options
    const plugin = identityOf(manifest)
    const adapters = grantedAdapters(options.granted, options.adapters, plugin)
    const contributed = new Map<string, AnyContribution>()
    let open = true

    const contribute: PluginContext["contribute"] = (kind, id, value) => {
      if (!open) throw new Error(`contribute("${kind}", "${id}") was called after activate finished`)
      const declaration = manifest.extensions.find((extension) => extension.id === id)
      if (declaration === undefined) throw new Error(`"${id}" is not among the extensions its manifest declares`)
      if (isDeclaredKind(kind))
        throw new Error(
          `"${id}" is a ${kind}: the host reads it from the manifest and the plugin's folder, nothing contributes it`
        )
      if (declaration.kind !== kind) throw new Error(`"${id}" is declared as a ${declaration.kind}, not a ${kind}`)
      if (contributed.has(id)) throw new Error(`"${id}" was contributed twice`)
      const problem = shapeProblem(kind, value)
      if (problem !== undefined) throw new Error(`the ${kind} "${id}" has the wrong shape: ${problem}`)
      contributed.set(
        id,
        contributionOf(manifest, declaration, value, options.granted, options.adapters, plugin, adapters)
      )
    }

    const context: PluginContext = Object.freeze({ plugin, adapters, contribute })
    return Effect.tryPromise({
      try: async () => {
        await options.activate(context)
      },
      catch: (cause) => activationFailed(manifest, reasonOf(cause))
    }).pipe(
      Effect.timeoutFail({
        duration: activationTimeout,
        onTimeout: () => activationFailed(manifest, `activate did not finish within ${activationTimeout}`)
      }),
      Effect.ensuring(
        Effect.sync(() => {
          open = false
        })
      ),
      Effect.flatMap(() => {
        const missing = manifest.extensions
          .filter((extension) => !isDeclaredKind(extension.kind) && !contributed.has(extension.id))
          .map((extension) => extension.id)
        return missing.length > 0
          ? Effect.fail(activationFailed(manifest, `declared but never contributed: ${missing.join(", ")}`))
          : Effect.succeed([...contributed.values()])
      })
    )
  })
