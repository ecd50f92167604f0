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
import { pluginFilesAdapterFactory } from "../../kernel/extensions/plugin-files.ts"
import { Settings } from "../../kernel/settings.ts"
import { WebSettings } from "../web/settings.ts"
import { signalsAdapterFactory } from "../desktop/signals-adapter.ts"
import { scheduleAdapterFactory } from "../time/schedule-adapter.ts"
import { SkillRunner } from "../time/skill-runs.ts"
import { Scheduler } from "../time/scheduler.ts"
import { ScheduledActivity } from "../time/scheduled-activity.ts"
import { Signals } from "../desktop/signals.ts"
import { llmAdapterFactory } from "../models/adapter.ts"
import { ModelsLive } from "../models/models-layer.ts"
import { networkAdapterFactory } from "../network/adapter.ts"
import { processAdapterFactory } from "../sandbox/adapter.ts"
import { Sandbox } from "../sandbox/sandbox.ts"
import { authoringAdapterFactory } from "../studio/authoring-adapter.ts"
import { hostVersion } from "../../kernel/version.ts"
import { Accounts } from "../accounts/accounts.ts"
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
  // The `schedule` adapter's timed skill runs: the runtime's binding (filled by SkillRunsLive) and the scheduler.
  Layer.provide(Layer.mergeAll(SkillRunner.Default, Scheduler.Default)),
  // The `signals`, `llm` and `memory` adapters call through these.
  Layer.provide(Layer.mergeAll(Signals.Default, ModelsLive, twinFeature, Accounts.Default, Sandbox.Default, ScheduledActivity.Default))
)
