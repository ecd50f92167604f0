/**
 * The node's extension host, booted with the built-in plugins and every feature's capability
 * adapter. This is the node's wiring, not a feature: it composes the features, so it lives in
 * host/, and the features that run over the host (skills, generators) ask for the kernel's
 * `ExtensionHost` tag, which the node provides once. A granted capability without an adapter
 * stays absent from a plugin's context.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { builtins } from "./builtins.ts"
import { manifest as studio } from "../extensions/studio/plugin.ts"
import { reservedNamespaces } from "../extensions/plugins/contract/reserved-namespaces.ts"
import { ExtensionHost } from "../kernel/extensions/host.ts"
import { SkillCheck } from "../kernel/extensions/skill-check.ts"
import { pluginFilesAdapterFactory } from "../kernel/extensions/plugin-files.ts"
import { Settings } from "../kernel/settings.ts"
import { WebSettings } from "../extensions/network/contract/web-settings.ts"
import { signalsAdapterFactory } from "../extensions/plugins/signals-adapter.ts"
import { scheduleAdapterFactory } from "../extensions/time/schedule-adapter.ts"
import { ScheduledActivity } from "../extensions/time/scheduled-activity.ts"
import { llmAdapterFactory } from "../extensions/models/adapter.ts"
import { ModelsLive } from "../extensions/models/models-layer.ts"
import { networkAdapterFactory } from "../extensions/network/adapter.ts"
import { processAdapterFactory } from "../extensions/sandbox/adapter.ts"
import { mcpPluginServers } from "../extensions/mcp/plugin-servers.ts"
import { mcpPluginTokens } from "../extensions/mcp/plugin-tokens.ts"
import { makeOutboundFetch } from "../kernel/http/outbound.ts"
import { Sandbox } from "../extensions/sandbox/sandbox.ts"
import { authoringAdapterFactory } from "../extensions/studio/authoring-adapter.ts"
import { hostVersion } from "../kernel/version.ts"
import { KeyValueStorage, keyValueAdapterFactory } from "../kernel/extensions/key-value-storage.ts"
import type { CallScope, PluginIdentity } from "../kernel/extensions/context.ts"
import { memoryAdapterFactory } from "../extensions/twin/memory-adapter.ts"
import { twinFeature } from "../extensions/twin/feature.ts"
import { integrationsAdapterFactory } from "../extensions/comms/adapter.ts"
import { creditsAdapterFactory } from "../extensions/market/credits-adapter.ts"
import { BeingConnectionsLive } from "../extensions/comms/being-connections.ts"
import { MailAAccountsLive } from "../extensions/comms/mail-a/accounts.ts"

export const ExtensionHostLive = Layer.unwrapEffect(
  Effect.gen(function* () {
    // A plugin id is unique across everything loaded (built-ins load first), so no plugin can pass for a built-in.
    const builtinIds = new Set(builtins.map((module) => module.manifest.id))
    const signals = yield* signalsAdapterFactory(builtinIds)
    const schedule = yield* scheduleAdapterFactory(builtinIds)
    const memory = yield* memoryAdapterFactory(builtinIds)
    const network = networkAdapterFactory(yield* WebSettings)
    const llm = yield* llmAdapterFactory
    const sandbox = yield* processAdapterFactory
    const authoring = yield* authoringAdapterFactory(studio.id)
    const keyValue = yield* keyValueAdapterFactory
    // Every plugin's own keys for the being of a call; the studio's authoring beside them, for the studio only.
    const storage = (plugin: PluginIdentity, scope: CallScope) => {
      const keys = keyValue(plugin, scope)
      return keys === undefined ? undefined : { ...keys, ...authoring(plugin, scope) }
    }
    const integrations = yield* integrationsAdapterFactory
    const credits = yield* creditsAdapterFactory
    const filesystem = pluginFilesAdapterFactory(yield* Settings, builtinIds)
    // A plugin that is an MCP server runs in the sandbox's nova tier, never unsandboxed; a remote one is reached under
    // the node's outbound address policy (WEB_ALLOW_PRIVATE), as web.fetch is.
    const webSettings = yield* WebSettings
    const mcpServers = mcpPluginServers(
      {
        spawnServer: (yield* Sandbox).serve,
        settings: yield* Settings,
        fetch: makeOutboundFetch({ allowPrivate: webSettings.webAllowPrivate, userAgent: `svc-node/${hostVersion}` })
      },
      yield* mcpPluginTokens
    )
    return ExtensionHost.layer({
      hostVersion,
      builtins,
      reservedNamespaces,
      mcpServers,
      adapters: {
        signals,
        schedule,
        network,
        llm,
        storage,
        memory,
        filesystem,
        process: sandbox,
        integrations,
        credits
      }
    })
  })
).pipe(
  // A being's own mail and chat connections, preferred by the integrations adapter.
  Layer.provide(Layer.mergeAll(BeingConnectionsLive, MailAAccountsLive)),
  // The `schedule` adapter's timed skill runs: their check (over the registries, not the host).
  Layer.provide(SkillCheck.layer),
  // The `llm` and `memory` adapters call through these (the desktop's Signals and the accounts' BeingRegistry come from
  // the node).
  Layer.provide(
    Layer.mergeAll(ModelsLive, twinFeature, Sandbox.Default, ScheduledActivity.Default, KeyValueStorage.Default)
  )
)
