/**
 * Web Push as the node lists it (issue 30): the routes over the subscriptions and keys, and the sender that listens to
 * the being actor's deliveries. Above the twin's `SecretSealer`, the desktop's `Signals` and the being feature.
 */
import * as Layer from "effect/Layer"
import { PushHandlers } from "./handlers.ts"
import { PushKeys } from "./keys.ts"
import { PushRepository } from "./repository.ts"
import { makeSender } from "./sender.ts"
import { PushSubscriptions } from "./subscriptions.ts"

/** The keys, the subscriptions and the sender, built once. */
export const pushFeature = Layer.scopedDiscard(makeSender).pipe(
  Layer.provideMerge(PushSubscriptions.Default),
  Layer.provideMerge(PushKeys.Default),
  Layer.provideMerge(PushRepository.Default)
)

export const pushRoutes = PushHandlers
