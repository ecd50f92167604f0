/**
 * One registry per extension kind, keyed by full name `<namespace>.<extensionId>`. Features read
 * them (the skill registry, the theme list...); only the extension host writes, a whole plugin
 * at a time, so a plugin is either entirely registered or not at all.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { ContributionTaken } from "../contract/plugin-errors.ts"
import type { InstalledPlugin } from "../contract/plugins.ts"
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
  readonly add: (contributions: ReadonlyArray<AnyContribution>) => Effect.Effect<void, ContributionTaken>
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
          return Effect.fail(
            new ContributionTaken({
              message: `The ${contribution.kind} "${contribution.name}" is already registered.`,
              details: { kind: contribution.kind, name: contribution.name }
            })
          )
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
 * What is loaded, read apart from the extension host that loads it. The host's capability adapters
 * call features (a `storage` adapter writes agents and generators) that themselves read what the
 * host loaded (skill names, the generator catalogue): with one service for both, each needed the
 * other first. Split, the readers need only this registry, the host writes it, and every
 * dependency points one way (readers -> registry <- host -> adapters -> readers).
 */
export interface LoadedContributionsShape {
  /** What every plugin contributes, by kind. */
  readonly registries: Registries
  /** Built-ins first, then installed plugins in install order. */
  readonly installed: Effect.Effect<ReadonlyArray<InstalledPlugin>>
}

export class LoadedContributions extends Context.Tag("kernel/LoadedContributions")<
  LoadedContributions,
  LoadedContributionsShape
>() {}

/** The write side of LoadedContributions: only the extension host takes it. */
export interface ContributionsWriterShape {
  readonly writer: RegistryWriter
  /** Each loaded plugin's record, by id. */
  readonly loaded: Map<string, InstalledPlugin>
}

export class ContributionsWriter extends Context.Tag("kernel/ContributionsWriter")<
  ContributionsWriter,
  ContributionsWriterShape
>() {}

/** One registry for the node (or a test): both sides of it. */
export const contributionsLayer: Layer.Layer<LoadedContributions | ContributionsWriter> = Layer.effectContext(
  Effect.sync(() => {
    const writer = makeRegistries()
    const loaded = new Map<string, InstalledPlugin>()
    return Context.make(ContributionsWriter, { writer, loaded }).pipe(
      Context.add(LoadedContributions, {
        registries: writer.registries,
        installed: Effect.sync(() => [...loaded.values()])
      })
    )
  })
)
