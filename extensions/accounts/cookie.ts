/** Setting and clearing the signed, httpOnly, SameSite=Lax session cookie. */
import * as HttpApp from "@effect/platform/HttpApp"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { PublicOrigin } from "../../kernel/origin.ts"
import { SESSION_COOKIE } from "./contract/session.ts"
import { SESSION_LIFETIME_MS, Sessions } from "./sessions.ts"
import { AuthSettings } from "./settings.ts"
import { signCookie, unsignCookie } from "./tokens.ts"

const cookieOptions = Effect.gen(function* () {
  const settings = yield* AuthSettings
  const origin = yield* PublicOrigin
  return {
    httpOnly: true,
    sameSite: "lax" as const,
    path: "/",
    secure: origin.secure,
    ...Option.match(settings.cookieDomain, { onNone: () => ({}), onSome: (domain) => ({ domain }) })
  }
})

/** The token the request's cookie carries, when its signature holds. */
export const requestToken = Effect.gen(function* () {
  const request = yield* HttpServerRequest.HttpServerRequest
  const sessions = yield* Sessions
  const value = request.cookies[SESSION_COOKIE]
  return value === undefined ? null : unsignCookie(value, sessions.cookieSecret)
})

export const setSessionCookie = (token: string) =>
  Effect.gen(function* () {
    const sessions = yield* Sessions
    const options = yield* cookieOptions
    yield* HttpApp.appendPreResponseHandler((_request, response) =>
      Effect.orDie(
        HttpServerResponse.setCookie(response, SESSION_COOKIE, signCookie(token, sessions.cookieSecret), {
          ...options,
          maxAge: `${SESSION_LIFETIME_MS / 1000} seconds`
        })
      )
    )
  })

export const clearSessionCookie = Effect.gen(function* () {
  const options = yield* cookieOptions
  yield* HttpApp.appendPreResponseHandler((_request, response) =>
    Effect.orDie(HttpServerResponse.setCookie(response, SESSION_COOKIE, "", { ...options, maxAge: 0 }))
  )
})

/** Login and register destroy whatever session the request already carried. */
export const closeCarriedSession = Effect.gen(function* () {
  const token = yield* requestToken
  if (token !== null) yield* (yield* Sessions).close(token)
})
