/** The whole node as one layer: host/main.ts runs it, tests build it with their own settings on an ephemeral port. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { timeRoutes, TwinTimeLive } from "../extensions/time/routes.ts"
import { twinRoutes } from "../extensions/twin/routes.ts"
import { MarketLive, marketRoutes } from "../extensions/market/feature.ts"
import { federationRoutes } from "../extensions/federation/routes.ts"
import { servingLayer, uiDistDir } from "./http/serving.ts"
import { processLayer } from "./process.ts"
import type { NodeSettings } from "./settings.ts"
import * as Layer from "effect/Layer"
import { peerFeature, peerTags } from "../actors/peer/feature.ts"
import { seedFeature } from "../actors/seed/feature.ts"
import { NodeApi } from "./contract/api.ts"
import { DesktopHandlers } from "../extensions/desktop/handlers.ts"
import { SignalsLive } from "../extensions/desktop/signals.ts"
import { HealthHandlers } from "../extensions/health/handlers.ts"
import { metricsRoutes } from "../extensions/health/metrics-route.ts"
import { withTracing } from "../extensions/health/tracing.ts"
import { SandboxHealthLive } from "../extensions/sandbox/sandbox.ts"
import { LlmHandlers } from "../extensions/models/handlers.ts"
import { ModelsLive } from "../extensions/models/models-layer.ts"
import { LiveChannelLive } from "./live/channel.ts"
import { MailerLive } from "../extensions/mail/mailer.ts"
import { PluginsHandlers } from "../extensions/plugins/handlers.ts"
import { ModulesHandlers } from "../extensions/modules/handlers.ts"
import { BridgeLive } from "../extensions/modules/bridge/bridge.ts"
import { moduleDocumentLayer } from "../extensions/modules/document-route.ts"
import { commsFeature, consentRoutes } from "../extensions/comms/feature.ts"
import { ExtensionHostLive } from "./extension-host.ts"
import { StudioSkillsHandlers } from "../extensions/skills/handlers.ts"
import { SkillsLive, SkillsRuntimeLive } from "../extensions/skills/live.ts"
import { StudioAgentsHandlers } from "../extensions/agents/handlers.ts"
import { StudioGeneratorsHandlers } from "../extensions/generators/handlers.ts"
import { agentsFeature } from "../extensions/agents/feature.ts"
import { GeneratorsService } from "../extensions/generators/generators.ts"
import { GeneratorsLive } from "../extensions/generators/seed.ts"
import { CrewSeatingLive } from "../extensions/groups/crews.ts"
import { fileRoutesLayer, FilesHandlers } from "../extensions/files/handlers.ts"
import { filesFeature } from "../extensions/files/feature.ts"
import { threeRoutes } from "../extensions/scene3d/vendor-route.ts"
import { projectsDirectory, projectsRoutes } from "../actors/project/feature.ts"
import { ProjectWorkspacesLive } from "../actors/project/workspaces.ts"
import { SchedulerLive } from "../extensions/time/scheduler.ts"
import { SkillRunsLive } from "../extensions/time/skill-runs.ts"
import { twinFeature, twinPorts } from "../extensions/twin/feature.ts"
import { ConnectionTagsLive } from "../extensions/twin/connection-tags.ts"
import { ListingModerationLive } from "../extensions/market/moderation.ts"
import { themesRoutes } from "../extensions/themes/handlers.ts"
import { HeldThemesLive } from "../extensions/themes/themes-repository.ts"
import { BeingsFeatureHandlers } from "../extensions/souls/beings/handlers.ts"
import { RemotePostsLive, SoulServiceLive } from "../extensions/souls/soul-service.ts"
import { accountsFeature, accountsRoutes } from "../extensions/accounts/feature.ts"
import { BeingChangesLive } from "../extensions/accounts/session-cache.ts"
import { beingFeature } from "../actors/being/feature.ts"
import { threadsFeature, threadsRoutes } from "../extensions/threads/feature.ts"
import { ConversationThreadsLive } from "../extensions/threads/conversation-threads.ts"
import { federationLive } from "../extensions/federation/feature.ts"
import { groupsFeature } from "../extensions/groups/feature.ts"
import { searchRoutes } from "../extensions/search/handlers.ts"
import { mcpRoutes } from "../extensions/mcp/handlers.ts"
import { backupsRoutes } from "../extensions/backups/feature.ts"
import { pushFeature, pushRoutes } from "../extensions/push/feature.ts"

export interface NodeOptions {
  /** Overrides of the environment's settings (tests use a temp dataDir and port 0). */
  readonly settings?: Partial<NodeSettings>
  /** The built web app to serve: ui/dist unless a test builds one of its own. */
  readonly uiDir?: string
  /** Called with the URL the moment the node listens, before its services are built. */
  readonly onListening?: (url: string) => void
}

/** Every feature's routes, each with the services behind it. */
const routes = Layer.mergeAll(
  accountsRoutes,
  HealthHandlers,
  DesktopHandlers,
  LlmHandlers,
  PluginsHandlers,
  ModulesHandlers,
  StudioSkillsHandlers,
  StudioAgentsHandlers,
  StudioGeneratorsHandlers,
  projectsRoutes,
  FilesHandlers,
  timeRoutes,
  twinRoutes,
  marketRoutes,
  BeingsFeatureHandlers.pipe(Layer.provide(ListingModerationLive)),
  threadsRoutes,
  federationRoutes.pipe(Layer.provide([peerFeature, seedFeature])),
  themesRoutes,
  groupsFeature,
  searchRoutes,
  mcpRoutes.pipe(Layer.provide(TwinTimeLive)),
  backupsRoutes,
  pushRoutes
)

/** What features serve beside the contract: file bytes, three.js, module documents, consent redirects, metrics. */
const rawRoutes = Layer.mergeAll(fileRoutesLayer, threeRoutes, moduleDocumentLayer, consentRoutes, metricsRoutes)

/**
 * The node: its routes over one ordered list of the services features call each other through, each bound once, the
 * process at the bottom. A layer sees only what is below it, and a service read as an option (`serviceOption`) or a
 * reference with a default is silently absent when not below its reader, so order is the one rule: a reader above
 * what it reads. The extension host is the middle: what runs over the plugins it loaded sits above it, what its
 * capability adapters call sits below. Tracing is off unless a collector is set (tracing.ts): spans nobody reads cost
 * a seventh of a request.
 */
export const nodeLayer = (options: NodeOptions = {}) =>
  servingLayer(options.uiDir ?? uiDistDir, HttpApiBuilder.api(NodeApi).pipe(Layer.provide(routes)), rawRoutes)
    .pipe(
      Layer.provideMerge(projectsDirectory),
      Layer.provideMerge(threadsFeature),
      Layer.provideMerge(SkillRunsLive),
      Layer.provideMerge(SkillsLive),
      // The seeded catalogue, checked against the built-ins the host loaded.
      Layer.provideMerge(GeneratorsLive),
      // The bridge modules call through, and paired seeds act through.
      Layer.provideMerge(BridgeLive),
      Layer.provideMerge(LiveChannelLive),
      // The federation's outboxes (the threads' and the square's optional ports) over the peers they read.
      Layer.provideMerge(federationLive.pipe(Layer.provideMerge(peerTags))),
      Layer.provideMerge(ExtensionHostLive)
    )
    .pipe(
      Layer.provideMerge(twinFeature),
      Layer.provideMerge(agentsFeature),
      Layer.provideMerge(GeneratorsService),
      Layer.provideMerge(ModelsLive),
      Layer.provideMerge(SkillsRuntimeLive),
      Layer.provideMerge(Layer.merge(commsFeature, pushFeature)),
      Layer.provideMerge(SignalsLive),
      Layer.provideMerge(
        Layer.mergeAll(SandboxHealthLive, MarketLive, SoulServiceLive, RemotePostsLive, CrewSeatingLive, HeldThemesLive)
      ),
      // The twin's connection secrets and grants, provider registry, OAuth clients and secret box, for comms and the host.
      Layer.provideMerge(ConnectionTagsLive),
      Layer.provideMerge(beingFeature),
      Layer.provideMerge(accountsFeature),
      Layer.provideMerge(MailerLive),
      // The scheduler reads the process's WakeRelay as an option: a reminder set on one process wakes another.
      Layer.provideMerge(SchedulerLive),
      // Files, over the projects' workspaces (which the approval gate records outputs through, too).
      Layer.provideMerge(filesFeature.pipe(Layer.provideMerge(ProjectWorkspacesLive))),
      // Read as options or references with a default, so under all their readers: the twin's ports, and the
      // accounts' word of writes to `beings` (the session cache forgets, other processes hear).
      Layer.provideMerge(Layer.merge(twinPorts, BeingChangesLive)),
      // The federation's port to the threads' tables: a conversation's local half is a direct thread.
      Layer.provideMerge(ConversationThreadsLive),
      Layer.provideMerge(processLayer(options.settings, options.onListening)),
      withTracing(options.settings)
    )
