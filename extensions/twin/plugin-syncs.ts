/**
 * The providers loaded plugins contribute with a `sync` function, as remote syncs the twin runs
 * like mail_a's. Bound late, by the host once the extension host is built over the twin (which
 * its memory adapter needs): until then, and on a node without plugins, the list is empty.
 * Read at each call, so an install or uninstall shows at once.
 */
import * as Effect from "effect/Effect"
import * as Ref from "effect/Ref"
import type { RemoteSync } from "./ports.ts"

export class PluginSyncs extends Effect.Service<PluginSyncs>()("twin/PluginSyncs", {
  effect: Effect.gen(function* () {
    const source = yield* Ref.make<Effect.Effect<ReadonlyArray<RemoteSync>>>(Effect.succeed([]))
    return {
      list: Effect.flatten(Ref.get(source)),
      bind: (list: Effect.Effect<ReadonlyArray<RemoteSync>>) => Ref.set(source, list)
    } as const
  })
}) {}
