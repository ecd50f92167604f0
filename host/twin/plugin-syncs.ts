/**
 * The twin's PluginSyncs bound over the extension host, once that is built: each provider a loaded plugin contributes
 * with a `sync` function, as a remote sync the twin runs like mail_a's. The plugin is handed the
 * connection's id, its non-secret `meta` and the last cursor, never the connection's secret.
 * A plugin's items land as `learned` activity (the twin has no activity kind per plugin).
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { PluginSyncs } from "../../extensions/twin/plugin-syncs.ts"
import type { RemoteSync } from "../../extensions/twin/ports.ts"
import { ExtensionHost } from "../../kernel/extensions/host.ts"
import { callIntegration, integrationsWith } from "./plugin-integrations.ts"
import { fromPlugin } from "./providers.ts"

export const PluginSyncsLive = Layer.effectDiscard(
  Effect.gen(function* () {
    const host = yield* ExtensionHost
    yield* (yield* PluginSyncs).bind(Effect.suspend(() =>
      Effect.forEach(integrationsWith(host, "sync"), (contribution) =>
        Effect.map(fromPlugin(contribution), (registered) =>
          registered.map(({ descriptor }): RemoteSync => ({
            provider: descriptor.id,
            title: descriptor.title,
            icon: descriptor.icon,
            activity: "learned",
            origin: "plugin",
            cadenceMs: descriptor.cadenceMs,
            configured: true,
            unconfigured: "",
            connect: `Connect ${descriptor.title} under Settings → Connections, then sync.`,
            pull: (beingId, cursor, connection) => callIntegration(contribution, "sync", beingId, { connectionId: connection.id, cursor, meta: connection.meta })
          }))))
    ).pipe(Effect.map((lists) => lists.flat())))
  })
).pipe(Layer.provide(PluginSyncs.Default))
