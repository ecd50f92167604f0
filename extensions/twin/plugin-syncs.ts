/**
 * The providers loaded plugins contribute with a `sync` function, as remote syncs the twin runs
 * like mail_a's, and those with a `receive` function that a webhook delivery is handed to; read
 * at each call, so an install or uninstall shows at once. Bound in plugin-syncs-layer.ts over the
 * kernel's read-only contribution registries, not the extension host (which is built over the
 * twin); `none` for a twin without plugins.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { RemoteSync } from "./ports.ts"

/** A plugin provider with a `receive` function and `webhook` auth: what a verified delivery is handed to. */
export interface PluginReceiver {
  readonly provider: string
  readonly title: string
  readonly verify: "none" | "hmac-sha256" | "shared-secret"
  /** The provider's answer to one delivery, unchecked: the twin validates it against ProviderSyncResult. */
  readonly receive: (
    beingId: string,
    delivery: {
      readonly connectionId: string
      readonly meta: { readonly [key: string]: unknown }
      readonly contentType: string
      readonly body: string
    }
  ) => Effect.Effect<unknown, Error>
}

export interface PluginProviders {
  readonly list: Effect.Effect<ReadonlyArray<RemoteSync>>
  readonly receivers: Effect.Effect<ReadonlyArray<PluginReceiver>>
}

export class PluginSyncs extends Context.Tag("twin/PluginSyncs")<PluginSyncs, PluginProviders>() {
  /** No plugin providers: a twin built without the extension host's registries (a service test). */
  static readonly none = Layer.succeed(PluginSyncs, { list: Effect.succeed([]), receivers: Effect.succeed([]) })
}
