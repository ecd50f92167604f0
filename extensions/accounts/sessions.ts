/**
 * Server-side sessions: an opaque token (its digest stored), 30 days, revocable by deleting
 * the row. Never a JWT. The cookie secret is SESSION_SECRET or one generated once per node.
 * Every revocation is also announced (`revoked`) so the live channel closes that session's sockets,
 * and dropped from the session cache (session-cache.ts) that answers signed-in requests. On
 * PostgreSQL both go to the other processes too (host/broadcast): their caches drop the sessions
 * and their sockets close, and a `beings` write another process made drops its being's sessions.
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as PubSub from "effect/PubSub"
import * as Queue from "effect/Queue"
import * as Redacted from "effect/Redacted"
import { isoIn, nowIso } from "../../kernel/time.ts"
import { Broadcast } from "../../kernel/broadcast.ts"
import type { SessionShape } from "./contract/session.ts"
import { NodeMetaRepository } from "./repositories/node-meta.ts"
import { SessionsRepository } from "./repositories/sessions.ts"
import { SESSION_CACHE_SIZE, SessionCache } from "./session-cache.ts"
import { AuthSettings } from "./settings.ts"
import { digest, newId, newToken } from "./tokens.ts"
import { fnNamed, spanNamed } from "../../kernel/spans.ts"
import { verifiedCookies } from "./verified-cookies.ts"

export const SESSION_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000

export class Sessions extends Effect.Service<Sessions>()("auth/Sessions", {
  scoped: Effect.gen(function* () {
    const repository = yield* SessionsRepository
    const cache = yield* SessionCache
    const settings = yield* AuthSettings
    const broadcast = yield* Broadcast
    const revocations = yield* PubSub.unbounded<ReadonlyArray<string>>()

    // What other processes ended or changed reaches this process's cache and sockets as its own does.
    const fromOthers = yield* broadcast.subscribe
    yield* Effect.forkScoped(
      Effect.forever(
        Effect.flatMap(Queue.take(fromOthers), (body) => {
          if (body.kind === "sessions.ended") {
            cache.forgetSessions(body.ids)
            return PubSub.publish(revocations, body.ids)
          }
          if (body.kind === "being.changed") cache.forgetBeing(body.beingId)
          // Deaf for a while: a logout or a suspension elsewhere may have been missed.
          if (body.kind === "listen.resumed") cache.forgetAll()
          return Effect.void
        })
      )
    )

    const cookieSecret = yield* Option.match(settings.sessionSecret, {
      onSome: (secret) => Effect.succeed(Redacted.value(secret)),
      onNone: () =>
        Effect.flatMap(NodeMetaRepository, (meta) => meta.keep({ key: "session_secret", value: newToken() }))
    })

    /** Opens a session for a being; answers the token for the cookie. */
    const open = fnNamed("auth.openSession")(function* (beingId: string) {
      const token = newToken()
      yield* repository.insert({
        id: newId(),
        tokenHash: digest(token),
        beingId,
        createdAt: yield* nowIso,
        expiresAt: yield* isoIn(SESSION_LIFETIME_MS)
      })
      return token
    })

    /**
     * The live session a token opens. Every signed-in request runs this: from the cache when it
     * holds the session, else one statement whose answer the cache keeps.
     */
    const resolve = (token: string) => resolveDigest(digest(token))

    const resolveDigest = (tokenHash: string) =>
      Effect.flatMap(Clock.currentTimeMillis, (nowMs) => {
        const kept = cache.get(tokenHash, nowMs)
        if (kept !== undefined) return Effect.succeed(Option.some(kept))
        const readAt = cache.generation()
        return repository.resolve({ tokenHash, now: new Date(nowMs).toISOString() }).pipe(
          Effect.map(
            Option.map((resolved) => {
              cache.keep(readAt, tokenHash, resolved.session, Date.parse(resolved.expiresAt))
              return resolved.session
            })
          )
        )
      })

    const verified = verifiedCookies(cookieSecret, SESSION_CACHE_SIZE)
    /** The live session a signed cookie's value opens; none when its signature does not match. */
    const fromCookie = (value: string) => {
      const token = verified(value)
      return token === null ? Effect.succeed(Option.none<SessionShape>()) : resolveDigest(token.tokenHash)
    }

    const list = fnNamed("auth.listSessions")(function* (session: SessionShape) {
      const rows = yield* repository.listLive({ beingId: session.beingId, now: yield* nowIso })
      return rows.map((row) => ({ ...row, current: row.id === session.sessionId }))
    })

    /**
     * Drops the sessions a deletion removed from the cache, announces them (to the other processes
     * too, before the answer: a logout holds nowhere else a moment later) and answers how many.
     */
    const announce = (ids: ReadonlyArray<string>) => {
      if (ids.length === 0) return Effect.succeed(0)
      cache.forgetSessions(ids)
      return Effect.zipRight(
        broadcast.send({ kind: "sessions.ended", ids }),
        Effect.as(PubSub.publish(revocations, ids), ids.length)
      )
    }

    const revoke = (session: SessionShape, id: string) =>
      Effect.flatMap(repository.deleteOne({ id, beingId: session.beingId }), announce).pipe(
        spanNamed("auth.revokeSession")
      )

    const revokeOthers = (session: SessionShape) =>
      Effect.flatMap(repository.deleteOthers({ beingId: session.beingId, keep: session.sessionId }), announce).pipe(
        spanNamed("auth.revokeOtherSessions")
      )

    /** Drops every session of a being: logout everywhere, a password reset, a suspension. */
    const revokeAll = (beingId: string) =>
      Effect.flatMap(repository.deleteAll(beingId), announce).pipe(spanNamed("auth.revokeAllSessions"))

    const close = (token: string) =>
      Effect.flatMap(repository.deleteByToken(digest(token)), announce).pipe(
        Effect.asVoid,
        spanNamed("auth.closeSession")
      )

    /** Ids of sessions as they are revoked, from the moment of subscribing. */
    const revoked = PubSub.subscribe(revocations)

    /** The sessions that are still valid, of those given: the rest were revoked or expired. */
    const stillValid = (ids: ReadonlyArray<string>) =>
      ids.length === 0
        ? Effect.succeed(new Set<string>())
        : Effect.flatMap(nowIso, (now) => repository.live({ ids, now })).pipe(
            Effect.map((live) => new Set(live)),
            spanNamed("auth.stillValidSessions")
          )

    return {
      cookieSecret,
      open,
      resolve,
      fromCookie,
      list,
      revoke,
      revokeOthers,
      revokeAll,
      close,
      revoked,
      stillValid
    } as const
  }),
  dependencies: [SessionsRepository.Default, NodeMetaRepository.Default, SessionCache.Default]
}) {}
