/** The `SessionLookup` contract tag: a raw route's cookie to its live session, as the session middleware reads it. */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { SessionLookup } from "./contract/session-lookup.ts"
import { Sessions } from "./sessions.ts"

export const SessionLookupLive = Layer.effect(
  SessionLookup,
  Effect.map(Sessions, (sessions) => ({
    // A failing lookup is the node's fault, not the caller's: a defect (a logged 500), as before.
    fromCookie: (cookie: string) => Effect.orDie(sessions.fromCookie(cookie))
  }))
).pipe(Layer.provide(Sessions.Default))
