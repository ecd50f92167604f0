/**
 * One registry per extension kind, keyed by full name `<namespace>.<extensionId>`. Features read
 * them (the skill registry, the theme list...); only the extension host writes, a whole plugin
 * at a time, so a plugin is either entirely registered or not at all.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { Conflict } from "../contract/errors.ts"
import type { ExtensionContext } from "./context.ts"
import type { ContributionTypes } from "./contributions.ts"
import { extensionKinds, type ExtensionKind, type PluginExtension } from "../contract/manifest.ts"

export interface Contribution<K extends ExtensionKind = ExtensionKind> {
  readonly kind: K
  /** `<namespace>.<extensionId>` */
  readonly name: string
  readonly pluginId: string
  readonly declaration: PluginExtension
  readonly value: ContributionTypes[K]
  /** Pass this (extended per call) to the contribution when using it: it holds only `uses` ∩ grants. */
  readonly context: ExtensionContext
}

export type AnyContribution = { [K in ExtensionKind]: Contribution<K> }[ExtensionKind]

export const contributionName = (namespace: string, extensionId: string) => `${namespace}.${extensionId}`

export interface ContributionRegistry<K extends ExtensionKind> {
  readonly get: (name: string) => Contribution<K> | undefined
  readonly list: () => ReadonlyArray<Contribution<K>>
}

export type Registries = { readonly [K in ExtensionKind]: ContributionRegistry<K> }

export interface RegistryWriter {
  readonly registries: Registries
  /** Adds all or none; a full name already taken in its kind refuses the whole batch. */
  readonly add: (contributions: ReadonlyArray<AnyContribution>) => Effect.Effect<void, Conflict>
  readonly removePlugin: (pluginId: string) => void
}

export const makeRegistries = (): RegistryWriter => {
  const byKind = new Map<ExtensionKind, Map<string, AnyContribution>>(extensionKinds.map((kind) => [kind, new Map()]))
  const entries = (kind: ExtensionKind) => byKind.get(kind)!

  const view = <K extends ExtensionKind>(kind: K): ContributionRegistry<K> => ({
    get: (name) => entries(kind).get(name) as Contribution<K> | undefined,
    list: () => [...entries(kind).values()] as Array<Contribution<K>>
  })
  const registries = Object.fromEntries(extensionKinds.map((kind) => [kind, view(kind)])) as unknown as Registries

  const add = (contributions: ReadonlyArray<AnyContribution>) =>
    Effect.suspend(() => {
      const seen = new Set<string>()
      for (const contribution of contributions) {
        const key = `${contribution.kind}:${contribution.name}`
        if (seen.has(key) || entries(contribution.kind).has(contribution.name)) {
          return Effect.fail(new Conflict({
            error: "contribution_taken",
            message: `The ${contribution.kind} "${contribution.name}" is already registered.`,
            details: { kind: contribution.kind, name: contribution.name }
          }))
        }
        seen.add(key)
      }
      for (const contribution of contributions) entries(contribution.kind).set(contribution.name, contribution)
      return Effect.void
    })

  const removePlugin = (pluginId: string) => {
    for (const kindEntries of byKind.values()) {
      for (const [name, contribution] of kindEntries) {
        if (contribution.pluginId === pluginId) kindEntries.delete(name)
      }
    }
  }

  return { registries, add, removePlugin }
}

/**
 * The node's registries as a service of their own, apart from the extension host that writes
 * them: a reader built before the host (the skill check of skill-check.ts, which the `schedule`
 * adapter the host is built with needs) shares them without depending on the host.
 */
export class Contributions extends Context.Tag("kernel/Contributions")<Contributions, RegistryWriter>() {
  static readonly layer = Layer.sync(Contributions, makeRegistries)
}
