/**
 * Models as the node runs them: the models extension with its spend alerts raised on the owner's
 * desktop, and the routes other features read (ModelRoutes). Built with only the node's
 * infrastructure left to provide (SQL, settings, the cluster, the broadcast channel, the twin's
 * SecretSealer).
 */
import * as Layer from "effect/Layer"
import { modelsLayer } from "./models.ts"
import { ModelRoutesLive } from "./routes.ts"
import { SpendAlertsLive } from "./spend-alert-signals.ts"
import { ProviderBindings } from "./provider-bindings.ts"

/** Over the owner's providers and bindings, which need the twin's SecretSealer to open their keys. */
export const ModelsLive = ModelRoutesLive.pipe(
  Layer.provideMerge(modelsLayer.pipe(Layer.provide(SpendAlertsLive))),
  Layer.provideMerge(ProviderBindings.live)
)
