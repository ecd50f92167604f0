/**
 * The node's provider registry, as the twin's connections and other features (the plugin
 * providers' consent flow in extensions/comms/oauth/) read it.
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { ConnectionConfig, ProviderDescriptor } from "./connections.ts"

/** A provider of the node's registry: its descriptor, and what the host checks of a config beyond its auth's shape. */
export interface RegisteredProvider {
  readonly descriptor: ProviderDescriptor
  /** Why the config's values cannot be used (never repeating a value), or null when they can. */
  readonly check?: (config: ConnectionConfig) => string | null
  /** A new connection is `pending` when a later step completes it (the chat pairing), else `connected`. */
  readonly initialStatus?: "connected" | "pending"
}

/**
 * The node's provider registry (spec: "which providers exist is decided by the host's provider
 * registry"): the built-ins and every provider a loaded plugin contributes, read at each call so
 * an install or uninstall shows at once. The twin binds it over the contribution registries
 * (providers.ts).
 */
export class ProviderRegistry extends Context.Tag("twin/ProviderRegistry")<
  ProviderRegistry,
  {
    readonly list: Effect.Effect<ReadonlyArray<RegisteredProvider>>
  }
>() {}
