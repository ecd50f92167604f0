/**
 * What plugin code is handed. A context holds the adapter of each capability the owner granted
 * and nothing else: an ungranted capability is simply absent (`undefined`), never a stub that
 * throws, so plugin code can test for it and degrade. A contribution's context is narrowed
 * further to the capabilities its extension `uses`.
 */
import type { CapabilityKind } from "../contract/capabilities.ts"
import type { AdapterOf, GrantedAdapters } from "./adapters.ts"
import type { ContributionTypes } from "./contributions.ts"
import type { ExtensionKind, PluginManifestInput } from "../contract/manifest.ts"

export interface PluginIdentity {
  readonly id: string
  readonly namespace: string
  readonly version: string
}

/**
 * On whose behalf an adapter acts. The runtime builds a contribution's adapters afresh for each
 * call with that call's scope, so an adapter charges, attributes and stores for the right being
 * and project without plugin code ever naming them.
 */
export interface CallScope {
  /** The calling being; null for the plugin's own work outside a call (`activate`). */
  readonly beingId: string | null
  /** The project the call runs in, or null. */
  readonly projectId: string | null
  /** The full name of the contribution in use (`llm.generate`); null outside a call. */
  readonly contribution: string | null
}

/** The scope of `activate`, and of a contribution's own `adapters`. */
export const noCallScope: CallScope = Object.freeze({ beingId: null, projectId: null, contribution: null })

/**
 * Supplied by the host, one factory per capability it implements, called with the plugin (so an
 * adapter can scope itself: its own storage, signals attributed to it) and the call's scope: once
 * for `activate`, then for every call of a contribution, so keep factories cheap. A capability
 * with no factory yet stays absent even when granted, and so does one whose factory answers
 * undefined: an adapter the node keeps for some plugins or calls only (a feature's own rows, written for the being of a call).
 */
export type CapabilityAdapterFactories = {
  readonly [K in CapabilityKind]?: (plugin: PluginIdentity, scope: CallScope) => AdapterOf<K> | undefined
}

export interface PluginContext {
  readonly plugin: PluginIdentity
  readonly adapters: GrantedAdapters
  /**
   * Hands the host the implementation of an extension the manifest declares. Only during
   * `activate`; throws on an undeclared id, a kind other than declared, a second call for the
   * same id, or a value of the wrong shape.
   */
  readonly contribute: <K extends ExtensionKind>(kind: K, id: string, value: ContributionTypes[K]) => void
}

/** Handed with a contribution whenever the host (or a feature) uses it. */
export interface ExtensionContext {
  readonly plugin: PluginIdentity
  readonly extension: { readonly kind: ExtensionKind; readonly id: string; readonly name: string }
  /** Built for no call (`noCallScope`). */
  readonly adapters: GrantedAdapters
  /** The same adapters built for one call: what a feature hands the contribution when it runs it for a being. */
  readonly adaptersFor: (scope: CallScope) => GrantedAdapters
}

export type Activate = (context: PluginContext) => void | Promise<void>

/**
 * A built-in: a plain module exporting its manifest and `activate`. A local plugin's `main` exports only `activate`.
 */
export interface PluginModule {
  readonly manifest: PluginManifestInput
  readonly activate: Activate
}

export const grantedAdapters = (
  granted: ReadonlyArray<CapabilityKind>,
  factories: CapabilityAdapterFactories,
  plugin: PluginIdentity,
  scope: CallScope = noCallScope
): GrantedAdapters => {
  const adapters: { -readonly [K in CapabilityKind]?: AdapterOf<K> } = {}
  const add = <K extends CapabilityKind>(kind: K) => {
    const adapter = factories[kind]?.(plugin, scope)
    if (adapter !== undefined) adapters[kind] = adapter
  }
  granted.forEach(add)
  return Object.freeze(adapters)
}

export const narrowAdapters = (adapters: GrantedAdapters, uses: ReadonlyArray<CapabilityKind>): GrantedAdapters => {
  const narrowed: { -readonly [K in CapabilityKind]?: AdapterOf<K> } = {}
  const keep = <K extends CapabilityKind>(kind: K) => {
    const adapter = adapters[kind]
    if (adapter !== undefined) narrowed[kind] = adapter
  }
  uses.forEach(keep)
  return Object.freeze(narrowed)
}
