/**
 * The whole node as one layer: settings, database, services, the HTTP contract and the UI,
 * listening on a port. `npm start` runs it from host/main.ts; tests build it with their own
 * settings on an ephemeral port.
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { accountsRoutes } from "../extensions/accounts/handlers.ts"
import { timeRoutes } from "../extensions/time/routes.ts"
import { twinRoutes } from "../extensions/twin/routes.ts"
import { MarketLive } from "../extensions/market/feature.ts"
import { marketRoutes } from "../extensions/market/routes.ts"
import { federationRoutes } from "../extensions/federation/routes.ts"
import * as FiberRef from "effect/FiberRef"
import { servingLayer, uiDistDir } from "./http/serving.ts"
import { processLayer } from "./process.ts"
import type { NodeSettings } from "./settings.ts"
import * as Layer from "effect/Layer"
import { BeingLive } from "../actors/being/behaviour.ts"
import { beingServices } from "../actors/being/feature.ts"
import { HushLive } from "../actors/being/hush.ts"
import { peerFeature, peerTags } from "../actors/peer/feature.ts"
import { seedFeature } from "../actors/seed/feature.ts"
import { NodeApi } from "./contract/api.ts"
import { AuthenticationLive } from "../extensions/accounts/authentication.ts"
import { AccessCodes } from "../extensions/accounts/codes.ts"
import { BeingChangesLive } from "../extensions/accounts/session-cache.ts"
import { Sessions } from "../extensions/accounts/sessions.ts"
import { SessionLookupLive } from "../extensions/accounts/session-lookup.ts"
import { BeingRegistryLive, NodeMetaLive } from "../extensions/accounts/being-registry.ts"
import { DesktopHandlers } from "../extensions/desktop/handlers.ts"
import { SignalsLive } from "../extensions/desktop/signals.ts"
import { HealthHandlers } from "../extensions/health/handlers.ts"
import { SandboxHealthLive } from "../extensions/sandbox/sandbox.ts"
import { LlmHandlers } from "../extensions/models/handlers.ts"
import { ModelsLive } from "../extensions/models/models-layer.ts"
import { LiveChannelLive } from "./live/channel.ts"
import { MailerLive } from "../extensions/mail/mailer.ts"
import { PluginsHandlers } from "../extensions/plugins/handlers.ts"
import { ModulesHandlers } from "../extensions/modules/handlers.ts"
import { BridgeLive } from "../extensions/modules/bridge/bridge.ts"
import { moduleDocumentLayer } from "../extensions/modules/document-route.ts"
import { mailAConsentRoutes } from "../extensions/comms/mail-a/consent-routes.ts"
import { MailAAccountsLive } from "../extensions/comms/mail-a/accounts.ts"
import { MailASyncLive } from "../extensions/comms/mail-a/sync-source.ts"
import { pluginOAuthRoutes } from "../extensions/plugins/oauth/routes.ts"
import { ExtensionHostLive } from "./extension-host.ts"
import { StudioSkillsHandlers } from "../extensions/skills/handlers.ts"
import { SkillsLive, SkillsRuntimeLive } from "../extensions/skills/live.ts"
import { StudioAgentsHandlers } from "../extensions/agents/handlers.ts"
import { StudioGeneratorsHandlers } from "../extensions/generators/handlers.ts"
import { AgentsLive } from "../extensions/agents/agents.ts"
import { GeneratorsService } from "../extensions/generators/generators.ts"
import { GeneratorsLive } from "../extensions/generators/seed.ts"
import { CrewSeatingLive } from "../extensions/groups/crews.ts"
import { fileRoutesLayer, FilesHandlers } from "../extensions/files/handlers.ts"
import { filesFeature } from "../extensions/files/feature.ts"
import { threeRoutes } from "../extensions/scene3d/vendor-route.ts"
import { projectsFeature } from "../actors/project/feature.ts"
import { ProjectDirectoryLive } from "../actors/project/directory.ts"
import { StudioProjectsHandlers } from "../actors/project/handlers.ts"
import { ProjectWorkspacesLive } from "../actors/project/workspaces.ts"
import { SchedulerLive } from "../extensions/time/scheduler.ts"
import { SkillRunsLive } from "../extensions/time/skill-runs.ts"
import { twinFeature } from "../extensions/twin/feature.ts"
import { FileSummariesLive } from "../extensions/twin/file-summaries.ts"
import { EventTimeZoneLive, ProfileTimeZoneLive } from "../extensions/twin/profile-time-zone.ts"
import { ThreadLearningLive } from "../extensions/twin/thread-learning.ts"
import { MemoryEvidenceLive } from "../extensions/twin/memory-evidence.ts"
import { AgentBeingsLive } from "../extensions/agents/agent-beings.ts"
import { ListingModerationLive } from "../extensions/market/moderation.ts"
import { ThemesHandlers } from "../extensions/themes/handlers.ts"
import { Themes } from "../extensions/themes/themes.ts"
import { HeldThemesLive } from "../extensions/themes/themes-repository.ts"
import { BeingsFeatureHandlers } from "../extensions/souls/beings/handlers.ts"
import { RemotePostsLive, SoulServiceLive } from "../extensions/souls/soul-service.ts"
import { ConnectionSecretsFeature } from "../extensions/twin/connection-secrets.ts"
import { threadsFeature } from "../extensions/threads/feature.ts"
import { AgentThreadsLive } from "../extensions/threads/agent-threads.ts"
import { ConversationThreadsLive } from "../extensions/threads/conversation-threads.ts"
import { ThreadsHandlers } from "../extensions/threads/handlers.ts"
import { federationLive } from "../extensions/federation/feature.ts"
import { groupsFeature } from "../extensions/groups/feature.ts"
import { SearchHandlers } from "../extensions/search/handlers.ts"
import { Search } from "../extensions/search/search.ts"

export type { NodeSettings } from "./settings.ts"

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
  StudioProjectsHandlers.pipe(Layer.provide(projectsFeature)),
  FilesHandlers,
  timeRoutes,
  twinRoutes,
  marketRoutes,
  BeingsFeatureHandlers.pipe(Layer.provide(ListingModerationLive)),
  ThreadsHandlers.pipe(Layer.provide(threadsFeature)),
  federationRoutes.pipe(Layer.provide([peerFeature, seedFeature])),
  ThemesHandlers.pipe(Layer.provide(Themes.Default)),
  groupsFeature,
  SearchHandlers.pipe(Layer.provide(Search.Default), Layer.provide(twinFeature))
)

/** What features serve beside the contract: file bytes, three.js, module documents, consent redirects. */
const rawRoutes = Layer.mergeAll(
  fileRoutesLayer,
  threeRoutes,
  moduleDocumentLayer,
  mailAConsentRoutes,
  pluginOAuthRoutes
)

/**
 * The node: its routes over one ordered list of the services features call each other through, each
 * bound once, the process at the bottom. A layer sees only what is below it, and a missing optional
 * service (`serviceOption`) is silently absent, so order is the one rule: a reader above what it reads.
 * Tracing is off: with no exporter nobody reads the spans, and recording them cost a seventh of a request.
 */
export const nodeLayer = (options: NodeOptions = {}) =>
  servingLayer(options.uiDir ?? uiDistDir, HttpApiBuilder.api(NodeApi).pipe(Layer.provide(routes)), rawRoutes)
    .pipe(
      Layer.provide(AuthenticationLive),
      Layer.provideMerge(threadsFeature),
      Layer.provideMerge(HushLive),
      Layer.provideMerge(ProjectDirectoryLive),
      // A project's run writes its notes to its agent thread.
      Layer.provideMerge(AgentThreadsLive),
      Layer.provideMerge(AccessCodes.Default),
      Layer.provideMerge(BeingLive),
      // Timed skill runs fire through the skill runtime below.
      Layer.provideMerge(SkillRunsLive),
      Layer.provideMerge(SkillsLive),
      // The seeded catalogue, checked against the built-ins the host loaded.
      Layer.provideMerge(GeneratorsLive),
      Layer.provideMerge(CrewSeatingLive),
      Layer.provideMerge(HeldThemesLive),
      // The bridge modules call through, and paired seeds act through.
      Layer.provideMerge(BridgeLive),
      Layer.provideMerge(LiveChannelLive),
      // The federation's outboxes (the threads' and the square's optional ports) over the peers they read.
      Layer.provideMerge(federationLive),
      Layer.provideMerge(peerTags),
      // The extension host with every feature's capability adapter (extension-host.ts).
      Layer.provideMerge(ExtensionHostLive)
    )
    .pipe(
      // The twin, and the ports it binds for others: threads' learning, the calendar's zone, hush's evidence.
      Layer.provideMerge(twinFeature),
      Layer.provideMerge(ThreadLearningLive),
      Layer.provideMerge(EventTimeZoneLive),
      Layer.provideMerge(MemoryEvidenceLive),
      // What the host's adapters call (the studio's storage, `llm`), over the skill runtime agents check.
      Layer.provideMerge(AgentsLive),
      Layer.provideMerge(GeneratorsService),
      Layer.provideMerge(ModelsLive),
      Layer.provideMerge(SkillsRuntimeLive),
      // mail_a as a provider the twin syncs, over its mailboxes.
      Layer.provideMerge(MailASyncLive.pipe(Layer.provide(MailAAccountsLive))),
      // The twin's connection secrets and consent grants, under the integrations and consent flows.
      Layer.provideMerge(ConnectionSecretsFeature),
      Layer.provideMerge(SignalsLive),
      Layer.provideMerge(SandboxHealthLive),
      Layer.provideMerge(MarketLive),
      Layer.provideMerge(SoulServiceLive),
      Layer.provideMerge(RemotePostsLive),
      Layer.provideMerge(SessionLookupLive),
      // The agents' port to the beings registry: it writes their beings.
      Layer.provideMerge(AgentBeingsLive),
      Layer.provideMerge(BeingRegistryLive),
      Layer.provideMerge(NodeMetaLive)
    )
    .pipe(
      // The scheduler reads the process's WakeRelay as an option: a reminder set on one process wakes another.
      Layer.provideMerge(SchedulerLive),
      // The sessions every signed-in request resolves, and the writes to `beings` their cache hears of.
      Layer.provideMerge(Sessions.Default),
      Layer.provideMerge(BeingChangesLive),
      Layer.provideMerge(MailerLive),
      // The being actor's port to the twin: its quiet hours follow the profile's time zone.
      Layer.provideMerge(ProfileTimeZoneLive),
      // Files, over the projects' workspaces and their port to the twin (the files provider's summaries).
      Layer.provideMerge(filesFeature),
      Layer.provideMerge(ProjectWorkspacesLive),
      Layer.provideMerge(FileSummariesLive),
      Layer.provideMerge(beingServices),
      // The federation's port to the threads' tables: a conversation's local half is a direct thread.
      Layer.provideMerge(ConversationThreadsLive),
      Layer.provideMerge(processLayer(options.settings, options.onListening)),
      Layer.locally(FiberRef.currentTracerEnabled, false)
    )
