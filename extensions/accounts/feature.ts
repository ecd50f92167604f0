/**
 * The accounts feature as the node lists it: its routes, and its services: how a request finds its caller (sessions,
 * their cache and its lookup), access codes, the beings registry and the node's own record. The services stand on the
 * database and the mailer alone, so every other feature can stand on them. Their word of writes to `beings`
 * (session-cache.ts: `BeingChangesLive`) is a reference with a default, so the node lists it under them.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { AuthenticationLive } from "./authentication.ts"
import { BeingRegistryLive, NodeMetaLive } from "./being-registry.ts"
import { AccessCodes, OwnerBootstrapCode } from "./codes.ts"
import { AuthHandlers, AuthPublicHandlers } from "./handlers.ts"
import { SessionLookupLive } from "./session-lookup.ts"
import { Sessions } from "./sessions.ts"

/**
 * The owner's bootstrap code exists before the node serves a request: the routes come up above this feature, and a
 * registration that arrived while the node started (it waits for the routes) must find the code in place. What was
 * ensured is kept as `OwnerBootstrapCode`, which the start's banner prints: one transaction at a start, not two.
 */
const BootstrapCodeLive = Layer.effect(
  OwnerBootstrapCode,
  Effect.flatMap(AccessCodes, (codes) => Effect.orDie(codes.ensureBootstrap))
)

export const accountsFeature = Layer.mergeAll(
  AuthenticationLive,
  BootstrapCodeLive.pipe(Layer.provideMerge(AccessCodes.Default)),
  Sessions.Default,
  SessionLookupLive,
  BeingRegistryLive,
  NodeMetaLive
)

/** The accounts routes: those anyone may call (register, sign in, reset) and those of a session. */
export const accountsRoutes = Layer.mergeAll(AuthPublicHandlers, AuthHandlers)
