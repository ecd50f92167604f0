/**
 * The Connections feature as the node lists it: its service with the ports bound (the provider
 * registry over the extension host, the owner's folder, the node's salt kept in `node_meta`).
 */
import * as Layer from "effect/Layer"
import { Connections } from "../../extensions/twin/connections.ts"
import { TwinFoldersLive } from "./folders.ts"
import { NodeValuesLive } from "./node-values.ts"
import { ProviderRegistryLive } from "./providers.ts"

export const connectionsFeature = Connections.Default.pipe(Layer.provide(Layer.mergeAll(ProviderRegistryLive, TwinFoldersLive, NodeValuesLive)))
