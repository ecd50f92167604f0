/** Handlers of the Auth groups: thin, each a call into the service that owns the rule. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { SessionNotFound } from "./contract/errors.ts"
import { apiOf } from "../../kernel/contract/node-api.ts"
import { AuthApi, AuthPublicApi } from "./contract/api.ts"
import { Accounts } from "./accounts.ts"
import { AccessCodes } from "./codes.ts"
import { clearSessionCookie, closeCarriedSession, requestToken, setSessionCookie } from "./cookie.ts"
import { MailFlows } from "./mail-flows.ts"
import { requireOwner } from "./contract/owner.ts"
import type { Being } from "./contract/records.ts"
import { CurrentSession } from "./contract/session.ts"
import { Sessions } from "./sessions.ts"
import { Waitlist, waitlistCsv } from "./waitlist.ts"

const ok = { ok: true } as const

const revokedAnswer = (revoked: number) => ({ ok: true as const, revoked })

/** The services the routes call, each wiring its own repositories; mail and the public origin come from the node. */
const services = Layer.mergeAll(
  Accounts.Default,
  Sessions.Default,
  AccessCodes.Default,
  Waitlist.Default,
  MailFlows.Default
)

const ownerOnly = <A, E, R>(self: Effect.Effect<A, E, R>) => Effect.zipRight(requireOwner, self)

export const AuthPublicHandlers = HttpApiBuilder.group(apiOf(AuthPublicApi), "authPublic", (handlers) =>
  Effect.gen(function* () {
    const accounts = yield* Accounts
    const waitlist = yield* Waitlist
    const mailFlows = yield* MailFlows
    const sessions = yield* Sessions

    const signIn = (result: { being: Being; token: string }) =>
      closeCarriedSession.pipe(Effect.zipRight(setSessionCookie(result.token)), Effect.as({ being: result.being }))

    /** The being of the request's session, if its cookie is signed and the session lives. */
    const sessionState = Effect.gen(function* () {
      const token = yield* requestToken
      if (token === null) return { being: null }
      const session = yield* sessions.resolve(token)
      return { being: Option.getOrNull(Option.map(session, (live) => live.being)) }
    })

    return handlers
      .handle("session", () => sessionState)
      .handle("register", ({ payload }) => Effect.flatMap(accounts.register(payload), signIn))
      .handle("login", ({ payload }) => Effect.flatMap(accounts.login(payload.email, payload.password), signIn))
      .handle("joinWaitlist", ({ payload }) => Effect.as(waitlist.join(payload), ok))
      .handle("verifyEmail", ({ payload }) => Effect.as(mailFlows.verify(payload.token), ok))
      .handle("requestPasswordReset", ({ payload }) => Effect.as(mailFlows.requestReset(payload.email), ok))
      .handle("resetPassword", ({ payload }) => Effect.as(mailFlows.resetPassword(payload.token, payload.password), ok))
  })
).pipe(Layer.provide(services))

export const AuthHandlers = HttpApiBuilder.group(apiOf(AuthApi), "auth", (handlers) =>
  Effect.gen(function* () {
    const accounts = yield* Accounts
    const sessions = yield* Sessions
    const codes = yield* AccessCodes
    const waitlist = yield* Waitlist
    const mailFlows = yield* MailFlows

    return handlers
      .handle("me", () => Effect.map(CurrentSession, (session) => ({ being: session.being })))
      .handle("logout", () =>
        Effect.flatMap(CurrentSession, (session) => sessions.revoke(session, session.sessionId)).pipe(
          Effect.zipRight(clearSessionCookie),
          Effect.as(ok)
        )
      )
      .handle("logoutAll", () =>
        Effect.flatMap(CurrentSession, (session) => sessions.revokeAll(session.beingId)).pipe(
          Effect.tap(clearSessionCookie),
          Effect.map(revokedAnswer)
        )
      )
      .handle("listSessions", () => Effect.flatMap(CurrentSession, sessions.list))
      .handle("revokeOtherSessions", () =>
        Effect.map(Effect.flatMap(CurrentSession, sessions.revokeOthers), revokedAnswer)
      )
      .handle("revokeSession", ({ path }) =>
        Effect.flatMap(CurrentSession, (session) => sessions.revoke(session, path.id)).pipe(
          Effect.filterOrFail(
            (revoked) => revoked > 0,
            () => new SessionNotFound({ message: "You have no session with that id." })
          ),
          Effect.map(revokedAnswer)
        )
      )
      .handle("changePassword", ({ payload }) =>
        Effect.flatMap(CurrentSession, (session) =>
          accounts.changePassword(session, payload.currentPassword, payload.newPassword)
        ).pipe(Effect.map(revokedAnswer))
      )
      .handle("emailStatus", () => Effect.flatMap(CurrentSession, (s) => mailFlows.status(s.beingId)))
      .handle("sendVerification", () => Effect.flatMap(CurrentSession, (s) => mailFlows.sendVerification(s.beingId)))
      .handle("listCodes", ({ urlParams }) => ownerOnly(codes.list({ filter: "all", ...urlParams })))
      .handle("listUnusedCodes", ({ urlParams }) => ownerOnly(codes.list({ filter: "unused", ...urlParams })))
      .handle("mintCodes", ({ payload }) =>
        Effect.flatMap(requireOwner, (owner) => codes.mint(owner.beingId, payload.count, payload.note))
      )
      .handle("deleteCode", ({ path }) => Effect.as(ownerOnly(codes.remove(path.code)), ok))
      .handle("sendInvite", ({ payload }) =>
        Effect.flatMap(requireOwner, (owner) => codes.invite(owner.beingId, payload.email, payload.note))
      )
      .handle("listInvites", ({ urlParams }) => ownerOnly(codes.listInvites(urlParams)))
      .handle("listWaitlist", ({ urlParams }) => ownerOnly(waitlist.page(urlParams)))
      .handle("downloadWaitlist", () =>
        ownerOnly(waitlist.list).pipe(
          Effect.map((rows) =>
            HttpServerResponse.text(waitlistCsv(rows), {
              contentType: "text/csv; charset=utf-8",
              headers: { "content-disposition": 'attachment; filename="waitlist.csv"' }
            })
          )
        )
      )
      .handle("listBeings", () => ownerOnly(accounts.listBeings))
      .handle("suspend", ({ path }) => ownerOnly(accounts.suspend(path.id)))
      .handle("unsuspend", ({ path }) => ownerOnly(accounts.unsuspend(path.id)))
  })
).pipe(Layer.provide(services))
