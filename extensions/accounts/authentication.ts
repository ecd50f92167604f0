/** The live session middleware: a forged or unknown cookie is a 401, never a hint why. */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { SessionRequired } from "./contract/errors.ts"
import { Authentication } from "./contract/session.ts"
import { Sessions } from "./sessions.ts"
import { unsignCookie } from "./tokens.ts"

const unauthorized = new SessionRequired({ message: "Sign in first: this needs a session." })

export const AuthenticationLive = Layer.effect(
  Authentication,
  Effect.gen(function* () {
    const sessions = yield* Sessions
    return {
      cookie: (value) => {
        const token = unsignCookie(Redacted.value(value), sessions.cookieSecret)
        if (token === null) return Effect.fail(unauthorized)
        return sessions
          .resolve(token)
          .pipe(Effect.flatMap(Option.match({ onNone: () => Effect.fail(unauthorized), onSome: Effect.succeed })))
      }
    }
  })
).pipe(Layer.provide(Sessions.Default))
