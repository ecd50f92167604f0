/**
 * The providers loaded plugins contribute with a `sync` function, as remote syncs the twin runs
 * like mail_a's, and those with a `receive` function that a webhook delivery is handed to. Bound late, by the host once the extension host is built over the twin (which
 * its memory adapter needs): until then, and on a node without plugins, the list is empty.
 * Read at each call, so an install or uninstall shows at once.
 */
import * as Effect from "effect/Effect"
import * as Ref from "effect/Ref"
import type { RemoteSync } from "./ports.ts"

/** A plugin provider with a `receive` function and `webhook` auth: what a verified delivery is handed to. */
export interface PluginReceiver {
  readonly provider: string
  readonly title: string
  readonly verify: "none" | "hmac-sha256" | "shared-secret"
  /** The provider's answer to one delivery, unchecked: the twin validates it against ProviderSyncResult. */
  readonly receive: (beingId: string, delivery: { readonly connectionId: string; readonly meta: { readonly [key: string]: unknown }; readonly contentType: string; readonly body: string }) => Effect.Effect<unknown, Error>
}

export interface PluginProviders {
  readonly syncs: Effect.Effect<ReadonlyArray<RemoteSync>>
  readonly receivers: Effect.Effect<ReadonlyArray<PluginReceiver>>
}

export class PluginSyncs extends Effect.Service<PluginSyncs>()("twin/PluginSyncs", {
  effect: Effect.gen(function* () {
    const source = yield* Ref.make<PluginProviders>({ syncs: Effect.succeed([]), receivers: Effect.succeed([]) })
    return {
      list: Effect.flatMap(Ref.get(source), (bound) => bound.syncs),
      receivers: Effect.flatMap(Ref.get(source), (bound) => bound.receivers),
      bind: (providers: PluginProviders) => Ref.set(source, providers)
    } as const
  })
}) {}
