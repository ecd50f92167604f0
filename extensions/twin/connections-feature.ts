/**
 * The Connections feature as the node lists it: its service with the ports bound (the provider
 * registry over the extension host, the owner's folder, the node's salt kept in `node_meta`, the
 * model bindings the memories of a browser import are embedded with, and the chat bridge's bot and Muse).
 */
import * as Layer from "effect/Layer"
import { Connections } from "./connections.ts"
import { TwinBindingsLive } from "./bindings.ts"
import { TwinFoldersLive } from "./folders.ts"
import { NodeValuesLive } from "./node-values.ts"
import { ProviderRegistryLive } from "./providers.ts"
import { ChatBotLive } from "./chat-bot.ts"
import { MuseRepliesLive } from "./chat-muse.ts"

export const connectionsFeature = Connections.Default.pipe(
  Layer.provide(
    Layer.mergeAll(
      ProviderRegistryLive,
      TwinFoldersLive,
      NodeValuesLive,
      TwinBindingsLive,
      ChatBotLive,
      MuseRepliesLive
    )
  )
)
