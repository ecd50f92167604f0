/**
 * Models as the node runs them: the models extension with its spend alerts raised on the owner's
 * desktop, and the routes other features read (ModelRoutes). Built with only the node's
 * infrastructure left to provide (SQL, settings, the cluster).
 */
import * as Layer from "effect/Layer"
import { modelsLayer } from "./models.ts"
import { ModelRoutesLive } from "./routes.ts"
import { SpendAlertsLive } from "./spend-alert-signals.ts"

export const ModelsLive = ModelRoutesLive.pipe(Layer.provideMerge(modelsLayer.pipe(Layer.provide(SpendAlertsLive))))
