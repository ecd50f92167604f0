/** The `SessionLookup` contract tag: a raw route's cookie to its live session, as the session middleware reads it. */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { SessionLookup } from "./contract/session-lookup.ts"
import { Sessions } from "./sessions.ts"
import { unsignCookie } from "./tokens.ts"

export const SessionLookupLive = Layer.effect(
  SessionLookup,
  Effect.map(Sessions, (sessions) => ({
    fromCookie: (cookie: string) => {
      const token = unsignCookie(cookie, sessions.cookieSecret)
      // A failing lookup is the node's fault, not the caller's: a defect (a logged 500), as before.
      return token === null ? Effect.succeed(Option.none()) : Effect.orDie(sessions.resolve(token))
    }
  }))
).pipe(Layer.provide(Sessions.Default))
