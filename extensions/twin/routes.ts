/** The twin's routes: its own, its connections, webhooks, OAuth clients and voice, each with its services. */
import * as Layer from "effect/Layer"
import { connectionsFeature } from "./connections-feature.ts"
import { ConnectionsHandlers } from "./connections-handlers.ts"
import { twinFeature } from "./feature.ts"
import { TwinHandlers } from "./handlers.ts"
import { OAuthClientsHandlers } from "./oauth-clients-handlers.ts"
import { VoiceHandlers } from "./voice-handlers.ts"
import { TwinWebhooksHandlers } from "./webhook-handlers.ts"

export const twinRoutes = Layer.mergeAll(
  TwinHandlers.pipe(Layer.provide(twinFeature)),
  ConnectionsHandlers.pipe(Layer.provide(connectionsFeature)),
  TwinWebhooksHandlers,
  OAuthClientsHandlers,
  VoiceHandlers
)
