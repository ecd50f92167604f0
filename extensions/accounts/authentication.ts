/** The live session middleware: a forged or unknown cookie is a 401, never a hint why. */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { SessionRequired } from "./contract/errors.ts"
import { Authentication, type SessionShape } from "./contract/session.ts"
import { Sessions } from "./sessions.ts"

const unauthorized = new SessionRequired({ message: "Sign in first: this needs a session." })

/** The session, or the refusal: made once, not per request. */
const liveOrRefused = Effect.flatMap(
  Option.match({ onNone: () => Effect.fail(unauthorized), onSome: Effect.succeed<SessionShape> })
)

export const AuthenticationLive = Layer.effect(
  Authentication,
  Effect.map(Sessions, (sessions) => ({
    cookie: (value: Redacted.Redacted) => liveOrRefused(sessions.fromCookie(Redacted.value(value)))
  }))
).pipe(Layer.provide(Sessions.Default))
