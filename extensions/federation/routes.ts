/** The federation's routes: peers, deliveries and the directory, and paired seeds. */
import * as Layer from "effect/Layer"
import { FederationHandlers } from "./handlers.ts"
import { FederationSeedsHandlers } from "./seeds-handlers.ts"

export const federationRoutes = Layer.mergeAll(FederationHandlers, FederationSeedsHandlers)
