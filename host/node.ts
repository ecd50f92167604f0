/**
 * The whole node as one layer: settings, database, services, the HTTP contract and the UI,
 * listening on a port. `npm start` runs it from host/main.ts; tests build it with their own
 * settings on an ephemeral port.
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpServer from "@effect/platform/HttpServer"
import * as Context from "effect/Context"
import * as FiberRef from "effect/FiberRef"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { fileURLToPath } from "node:url"
import { SignalActions } from "../actors/being/actions.ts"
import { BeingLive } from "../actors/being/behaviour.ts"
import { PresenceLive } from "../actors/being/presence.ts"
import { HushLive } from "../actors/being/hush.ts"
import { SignalReadsLive } from "../actors/being/signal-reads.ts"
import { nodeActorsLayer } from "../kernel/actors/index.ts"
import { databaseLayer } from "../kernel/database.ts"
import { fileStoresLayer } from "../kernel/file-stores.ts"
import { BroadcastLive } from "./broadcast/broadcast.ts"
import { SharedEventBusLive } from "./broadcast/event-bus.ts"
import { WakeRelayLive } from "./broadcast/wake-relay.ts"
import { SecretChangeRelayLive } from "./broadcast/secret-relay.ts"
import { PluginRelayLive } from "./broadcast/plugin-relay.ts"
import { Settings } from "../kernel/settings.ts"
import { NodeApi } from "./contract/api.ts"
import { AuthenticationLive } from "../extensions/accounts/authentication.ts"
import { AccessCodes } from "../extensions/accounts/codes.ts"
import { AuthHandlers, AuthPublicHandlers } from "../extensions/accounts/handlers.ts"
import { BeingChangesLive } from "../extensions/accounts/session-cache.ts"
import { Sessions } from "../extensions/accounts/sessions.ts"
import { SessionLookupLive } from "../extensions/accounts/session-lookup.ts"
import { BeingRegistryLive, NodeMetaLive } from "../extensions/accounts/being-registry.ts"
import { DesktopHandlers } from "../extensions/desktop/handlers.ts"
import { SignalsLive } from "../extensions/desktop/signals.ts"
import { HealthHandlers } from "../extensions/health/handlers.ts"
import { LlmHandlers } from "../extensions/models/handlers.ts"
import { ModelsLive } from "../extensions/models/models-layer.ts"
import { ApiErrorsLive } from "./http/api-errors.ts"
import { RateLimiterLive } from "./http/database-rate-store.ts"
import { serve } from "./http/request-policy.ts"
import { sendSecurityHeaders } from "./http/security-headers.ts"
import { nodeHttpServerLayer } from "./http/server.ts"
import { uiFilesLayer } from "./http/ui-files.ts"
import { LiveChannelLive } from "./live/channel.ts"
import { LiveConnectionsLive } from "./live/connections.ts"
import { NodeServer } from "./live/server.ts"
import { TopicAccessLive } from "./live/topics.ts"
import { MailerLive } from "../extensions/mail/mailer.ts"
import { migrations } from "./migrations.ts"
import { listeningUrl, PublicOrigin } from "../kernel/origin.ts"
import { nodeSettingsLayer, type NodeSettings } from "./settings.ts"
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
import { contributionsLayer } from "../kernel/extensions/registry.ts"
import { fileRoutesLayer, FilesHandlers } from "../extensions/files/handlers.ts"
import { projectsFeature } from "../actors/project/feature.ts"
import { ProjectDirectoryLive } from "../actors/project/directory.ts"
import { StudioProjectsHandlers } from "../actors/project/handlers.ts"
import { TwinTimeHandlers } from "../extensions/time/handlers.ts"
import { TwinHushHandlers } from "../extensions/time/hush-handlers.ts"
import { SchedulerLive } from "../extensions/time/scheduler.ts"
import { twinFeature } from "../extensions/twin/feature.ts"
import { FileSummariesLive } from "../extensions/twin/file-summaries.ts"
import { EventTimeZoneLive, ProfileTimeZoneLive } from "../extensions/twin/profile-time-zone.ts"
import { ThreadLearningLive } from "../extensions/twin/thread-learning.ts"
import { MemoryEvidenceLive } from "../extensions/twin/memory-evidence.ts"
import { AgentBeingsLive } from "../extensions/agents/agent-beings.ts"
import { TwinHandlers } from "../extensions/twin/handlers.ts"
import { marketFeature, MarketLive } from "../extensions/market/feature.ts"
import { MarketHandlers } from "../extensions/market/handlers.ts"
import { ListingModerationLive } from "../extensions/market/moderation.ts"
import { ThemesHandlers } from "../extensions/themes/handlers.ts"
import { Themes } from "../extensions/themes/themes.ts"
import { HeldThemesLive } from "../extensions/themes/themes-repository.ts"
import { BeingsFeatureHandlers } from "../extensions/souls/beings/handlers.ts"
import { RemotePostsLive, SoulServiceLive } from "../extensions/souls/soul-service.ts"
import { ConnectionsHandlers } from "../extensions/twin/connections-handlers.ts"
import { connectionsFeature } from "../extensions/twin/connections-feature.ts"
import { ConnectionSecretsFeature } from "../extensions/twin/connection-secrets.ts"
import { TwinWebhooksHandlers } from "../extensions/twin/webhook-handlers.ts"
import { OAuthClientsHandlers } from "../extensions/twin/oauth-clients-handlers.ts"
import { threadsFeature } from "../extensions/threads/feature.ts"
import { AgentThreadsLive } from "../extensions/threads/agent-threads.ts"
import { ConversationThreadsLive } from "../extensions/threads/conversation-threads.ts"
import { ThreadsHandlers } from "../extensions/threads/handlers.ts"
import { FederationHandlers } from "../extensions/federation/handlers.ts"
import { SquareOutboundLive, ThreadOutboundLive } from "../extensions/federation/feature.ts"
import { FederationSeedsHandlers } from "../extensions/federation/seeds-handlers.ts"
import { groupsFeature } from "../extensions/groups/feature.ts"
import { VoiceHandlers } from "../extensions/twin/voice-handlers.ts"
import { SearchHandlers } from "../extensions/search/handlers.ts"
import { Search } from "../extensions/search/search.ts"

export const uiDistDir = fileURLToPath(new URL("../ui/dist", import.meta.url))

export type { NodeSettings } from "./settings.ts"

export interface NodeOptions {
  /** Overrides of the environment's settings (tests use a temp dataDir and port 0). */
  readonly settings?: Partial<NodeSettings>
  /** The built web app to serve: ui/dist unless a test builds one of its own. */
  readonly uiDir?: string
  /** Called with the URL the moment the node listens, before its services are built. */
  readonly onListening?: (url: string) => void
}

/** The registries features plug into: signal actions, topic access, live sockets. */
const registries = Layer.mergeAll(SignalActions.layer, TopicAccessLive, LiveConnectionsLive)

/**
 * What the features stand on and no feature owns: the event bus, the public origin, the rate
 * limiter, the registries, the sessions every signed-in request resolves (and the writes to
 * `beings` their cache must hear of, from whichever feature makes them), the mailer.
 */
const infrastructure = Layer.mergeAll(
  Sessions.Default,
  BeingChangesLive,
  MailerLive,
  SharedEventBusLive,
  WakeRelayLive,
  SecretChangeRelayLive,
  PluginRelayLive,
  PublicOrigin.layer,
  RateLimiterLive,
  registries,
  // What the extension host loaded, read apart from the host (kernel/extensions/registry.ts says why).
  contributionsLayer,
  // The being actor's port to the twin: its quiet hours follow the profile's time zone.
  ProfileTimeZoneLive,
  // The files feature's port to the twin: the owner's files show what the files provider wrote of them.
  FileSummariesLive,
  // Who is online and a being's stored signals: read by several features through their contracts.
  PresenceLive,
  SignalReadsLive,
  // The federation's port to the threads' tables: a conversation's local half is a direct thread.
  ConversationThreadsLive
)

/**
 * The contract tags features call each other through, each bound once here (no feature builds
 * another's), below the shared services so every one of them may call them. The desktop's
 * signals and the agents' beings stand on the accounts' `BeingRegistry`, hence two rows.
 */
const contracts = Layer.mergeAll(
  SignalsLive,
  MarketLive,
  SoulServiceLive,
  RemotePostsLive,
  SessionLookupLive,
  // The agents' port to the beings registry, wherever the agents service is built: it writes their beings.
  AgentBeingsLive
).pipe(Layer.provideMerge(Layer.mergeAll(BeingRegistryLive, NodeMetaLive)))

/**
 * The services several features use, each wired to what it needs itself; listed so a test can
 * reach them in the node's runtime. A layer is built once per node however often it is named,
 * so the order of both lists is free.
 */
const shared = Layer.mergeAll(
  AccessCodes.Default,
  BeingLive,
  SkillsLive,
  // The seeded catalogue, checked against the built-ins the host loaded.
  GeneratorsLive,
  CrewSeatingLive,
  HeldThemesLive,
  // The bridge modules call through, and paired seeds act through.
  BridgeLive,
  LiveChannelLive,
  // The federation's outboxes behind the threads' and the square's optional ports (a conversation's
  // message, a square post): bound here, under both, since each feature only names its port.
  ThreadOutboundLive,
  SquareOutboundLive
)

/**
 * The twin, which other features call through its contract tags (memories, profiles, activity),
 * and the ports it binds for them: the threads' learning queue, the calendar's time zone, the
 * hush's evidence. Below the extension host, whose `memory` adapter and activity notes call it.
 */
const twin = Layer.mergeAll(twinFeature, ThreadLearningLive, EventTimeZoneLive, MemoryEvidenceLive)

/**
 * The services features call each other through (each a tag in its feature's contract), bound
 * once here, below every feature and above the shared services they use: a consumer names the
 * tag and never builds its provider.
 */
const featureContracts = Layer.mergeAll(threadsFeature, HushLive, ProjectDirectoryLive).pipe(
  // A project's run writes its notes to its agent thread.
  Layer.provideMerge(AgentThreadsLive)
)

/**
 * The features the extension host's capability adapters call (the studio's `storage` writes agents
 * and generators, `llm` calls models), with the skill runtime agents check names against: they read what the host
 * loaded through the registry, so they are built below the host and the host takes them as they are.
 */
const beneathHost = Layer.mergeAll(AgentsLive, GeneratorsService, ModelsLive).pipe(
  Layer.provideMerge(SkillsRuntimeLive)
)

/**
 * The node's features: each one's routes with the services behind them (the live channel, which has none, is shared).
 */
const features = Layer.mergeAll(
  Layer.mergeAll(AuthPublicHandlers, AuthHandlers),
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
  TwinTimeHandlers,
  TwinHushHandlers,
  TwinHandlers.pipe(Layer.provide(twinFeature)),
  MarketHandlers.pipe(Layer.provide(marketFeature)),
  // Moderation pauses listings through the market.
  BeingsFeatureHandlers.pipe(Layer.provide(ListingModerationLive)),
  ConnectionsHandlers.pipe(Layer.provide(connectionsFeature)),
  ThreadsHandlers.pipe(Layer.provide(threadsFeature)),
  FederationHandlers,
  FederationSeedsHandlers,
  ThemesHandlers.pipe(Layer.provide(Themes.Default)),
  groupsFeature,
  VoiceHandlers,
  TwinWebhooksHandlers,
  OAuthClientsHandlers,
  // The omnibar's search reads the twin's memories; projects and listings come through their contracts.
  SearchHandlers.pipe(Layer.provide(Search.Default), Layer.provide(twinFeature))
)

const apiLayer = HttpApiBuilder.api(NodeApi).pipe(Layer.provide(features))

/** The contract's routes, each inside the request policy (http/request-policy.ts), plus the raw routes. */
const httpLayer = (uiDir: string) =>
  serve.pipe(
    Layer.provide(HttpApiBuilder.middlewareOpenApi({ path: "/api/openapi.json" })),
    Layer.provide(ApiErrorsLive),
    Layer.provide(uiFilesLayer(uiDir)),
    Layer.provide(fileRoutesLayer),
    Layer.provide(moduleDocumentLayer),
    Layer.provide(mailAConsentRoutes),
    Layer.provide(pluginOAuthRoutes),
    Layer.provide(apiLayer),
    Layer.provide(AuthenticationLive)
  )

/**
 * Listening starts here, below the services, so they can know the address the node really got.
 * The http.Server is the node's own (live/server.ts) so the live channel, not the platform, takes
 * every WebSocket handshake; the HttpServer on it is ours too (http/server.ts: a fiber per
 * request without the platform's per-request pipeline).
 */
const listenLayer = (onListening: NodeOptions["onListening"]) =>
  Layer.unwrapEffect(
    Effect.gen(function* () {
      const settings = yield* Settings
      const server = yield* NodeServer
      server.prependListener("request", sendSecurityHeaders)
      const listening = nodeHttpServerLayer(server, { port: settings.port, host: settings.host })
      return onListening === undefined
        ? listening
        : Layer.tap(listening, (context) =>
            Effect.sync(() => onListening(listeningUrl(Context.get(context, HttpServer.HttpServer).address)))
          )
    })
  )

/**
 * The node, serving; its HttpServer is exposed so a caller can read the bound address.
 * Tracing is off: spans are declared throughout, but with no exporter configured nobody reads
 * them, and recording them cost about a seventh of a request's time (http/server.ts opens no
 * HTTP server span either).
 */
export const nodeLayer = (options: NodeOptions = {}) => {
  return httpLayer(options.uiDir ?? uiDistDir).pipe(
    Layer.provideMerge(featureContracts),
    Layer.provideMerge(shared),
    // The extension host with every feature's capability adapter (extension-host.ts), under the
    // features and shared services that run over it (skills, generators, plugins' administration).
    Layer.provideMerge(ExtensionHostLive),
    Layer.provideMerge(twin),
    Layer.provideMerge(beneathHost),
    // The twin's connection secrets and consent grants: the integrations adapter and the consent
    // flows of mail_a and plugin providers (which the twin's plugin syncs use) stand on them.
    // mail_a as a provider the twin syncs: comms binds the twin's RemoteSyncs over its mailboxes.
    Layer.provideMerge(MailASyncLive.pipe(Layer.provide(MailAAccountsLive))),
    Layer.provideMerge(ConnectionSecretsFeature),
    Layer.provideMerge(contracts),
    // The node's one scheduler, above the infrastructure: its wake-ups from other processes come
    // through the WakeRelay there, which it reads as an option (so a sibling would go unseen).
    Layer.provideMerge(SchedulerLive),
    Layer.provideMerge(infrastructure),
    // The channel between processes, under every feature that sends or hears on it (the accounts' sessions).
    Layer.provideMerge(BroadcastLive),
    Layer.provideMerge(nodeActorsLayer),
    Layer.provideMerge(databaseLayer(migrations)),
    Layer.provideMerge(listenLayer(options.onListening)),
    Layer.provideMerge(NodeServer.layer),
    // Files left where they were before FILES_DIR are moved under it before anything reads them.
    Layer.provideMerge(fileStoresLayer),
    Layer.provideMerge(nodeSettingsLayer(options.settings)),
    Layer.locally(FiberRef.currentTracerEnabled, false)
  )
}
