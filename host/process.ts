/**
 * The process every feature stands on and none owns: settings, the file stores, the node's own
 * http.Server listening, the database with every feature's migrations, the actors' runtime, the
 * channel between processes and what travels on it (events, wake-ups, secret and plugin changes),
 * the public origin, the rate limiter, the live channel's registries and the contributions the
 * extension host loaded, and the node's metrics. host/node.ts puts the features on top.
 */
import * as Layer from "effect/Layer"
import { nodeActorsLayer } from "../kernel/actors/index.ts"
import { databaseLayer } from "../kernel/database.ts"
import { contributionsLayer } from "../kernel/extensions/registry.ts"
import { fileStoresLayer } from "../kernel/file-stores.ts"
import { nodeMetricsLayer } from "../kernel/metrics.ts"
import { PublicOrigin } from "../kernel/origin.ts"
import { BroadcastLive } from "./broadcast/broadcast.ts"
import { SharedEventBusLive } from "./broadcast/event-bus.ts"
import { PluginRelayLive } from "./broadcast/plugin-relay.ts"
import { SecretChangeRelayLive } from "./broadcast/secret-relay.ts"
import { WakeRelayLive } from "./broadcast/wake-relay.ts"
import { RateLimiterLive } from "./http/database-rate-store.ts"
import { listenLayer } from "./http/serving.ts"
import { LiveConnectionsLive } from "./live/connections.ts"
import { NodeServer } from "./live/server.ts"
import { TopicAccessLive } from "./live/topics.ts"
import { migrations } from "./migrations.ts"
import { type NodeSettings, nodeSettingsLayer } from "./settings.ts"

export const processLayer = (
  settings: Partial<NodeSettings> | undefined,
  onListening: ((url: string) => void) | undefined
) =>
  Layer.mergeAll(
    SharedEventBusLive,
    WakeRelayLive,
    SecretChangeRelayLive,
    PluginRelayLive,
    PublicOrigin.layer,
    RateLimiterLive,
    TopicAccessLive,
    LiveConnectionsLive,
    // What the extension host loaded, read apart from the host (kernel/extensions/registry.ts says why).
    contributionsLayer
  ).pipe(
    // The channel between processes, under every feature that sends or hears on it (the accounts' sessions).
    Layer.provideMerge(BroadcastLive),
    Layer.provideMerge(nodeActorsLayer),
    Layer.provideMerge(databaseLayer(migrations)),
    Layer.provideMerge(listenLayer(onListening)),
    Layer.provideMerge(NodeServer.layer),
    // Files left where they were before FILES_DIR are moved under it before anything reads them.
    Layer.provideMerge(fileStoresLayer),
    Layer.provideMerge(Layer.merge(nodeSettingsLayer(settings), nodeMetricsLayer))
  )
