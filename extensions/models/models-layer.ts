/**
 * Models as the node runs them: the models extension with its spend alerts raised on the owner's
 * desktop. Built with only the node's infrastructure left to provide (SQL, settings, the cluster).
 */
import * as Layer from "effect/Layer"
import { modelsLayer } from "./models.ts"
import { SpendAlertsLive } from "./spend-alert-signals.ts"

export const ModelsLive = modelsLayer.pipe(Layer.provide(SpendAlertsLive))
