/**
 * The node's extension host, booted with the built-in plugins. Capability adapters arrive
 * here as the features that implement them land (signals, storage, llm, ...); until then a
 * granted capability without an adapter stays absent from a plugin's context.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { builtins } from "../../host/builtins.ts"
import { manifest as studio } from "../studio/plugin.ts"
import { ExtensionHost } from "../../kernel/extensions/host.ts"
import { SkillCheck } from "../../kernel/extensions/skill-check.ts"
import { pluginFilesAdapterFactory } from "../../kernel/extensions/plugin-files.ts"
import { Settings } from "../../kernel/settings.ts"
import { WebSettings } from "../web/settings.ts"
import { signalsAdapterFactory } from "./signals-adapter.ts"
import { scheduleAdapterFactory } from "../time/schedule-adapter.ts"
import { ScheduledActivity } from "../time/scheduled-activity.ts"
import { llmAdapterFactory } from "../models/adapter.ts"
import { ModelsLive } from "../models/models-layer.ts"
import { networkAdapterFactory } from "../network/adapter.ts"
import { processAdapterFactory } from "../sandbox/adapter.ts"
import { Sandbox } from "../sandbox/sandbox.ts"
import { authoringAdapterFactory } from "../studio/authoring-adapter.ts"
import { hostVersion } from "../../kernel/version.ts"
import { memoryAdapterFactory } from "../twin/memory-adapter.ts"
import { twinFeature } from "../twin/feature.ts"
import { integrationsAdapterFactory } from "../comms/adapter.ts"
import { BeingConnectionsLive } from "../comms/being-connections.ts"
import { MailAAccountsLive } from "../comms/mail-a/accounts.ts"

export const ExtensionsLive = Layer.unwrapEffect(
  Effect.gen(function* () {
    // A plugin id is unique across everything loaded (built-ins load first), so no plugin can pass for a built-in.
    const builtinIds = new Set(builtins.map((module) => module.manifest.id))
    const signals = yield* signalsAdapterFactory(builtinIds)
    const schedule = yield* scheduleAdapterFactory(builtinIds)
    const memory = yield* memoryAdapterFactory(builtinIds)
    const network = networkAdapterFactory(yield* WebSettings)
    const llm = yield* llmAdapterFactory
    const sandbox = yield* processAdapterFactory
    const storage = yield* authoringAdapterFactory(studio.id)
    const integrations = yield* integrationsAdapterFactory
    const filesystem = pluginFilesAdapterFactory(yield* Settings, builtinIds)
    return ExtensionHost.layer({ hostVersion, builtins, adapters: { signals, schedule, network, llm, storage, memory, filesystem, process: sandbox, integrations } })
  })
).pipe(
  // A being's own mail and chat connections, preferred by the integrations adapter.
  Layer.provide(Layer.mergeAll(BeingConnectionsLive, MailAAccountsLive)),
  // The `schedule` adapter's timed skill runs: their check (over the registries, not the host).
  Layer.provide(SkillCheck.layer),
  // The `llm` and `memory` adapters call through these (the desktop's Signals and the accounts' BeingRegistry come from the node).
  Layer.provide(Layer.mergeAll(ModelsLive, twinFeature, Sandbox.Default, ScheduledActivity.Default))
)
