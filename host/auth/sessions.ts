/**
 * Server-side sessions: an opaque token (its digest stored), 30 days, revocable by deleting
 * the row. Never a JWT. The cookie secret is SESSION_SECRET or one generated once per node.
 * Every revocation is also announced (`revoked`) so the live channel closes that session's sockets.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as PubSub from "effect/PubSub"
import * as Redacted from "effect/Redacted"
import { Settings } from "../../kernel/settings.ts"
import { isoIn, nowIso } from "../../kernel/time.ts"
import { beingColumnsOf, type BeingRow, toBeing } from "./being-row.ts"
import type { SessionShape } from "./contract/session.ts"
import { digest, newId, newToken } from "./tokens.ts"

export const SESSION_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000

export class Sessions extends Effect.Service<Sessions>()("host/Sessions", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const settings = yield* Settings
    const revocations = yield* PubSub.unbounded<ReadonlyArray<string>>()

    const cookieSecret = yield* Option.match(settings.sessionSecret, {
      onSome: (secret) => Effect.succeed(Redacted.value(secret)),
      onNone: () =>
        Effect.gen(function* () {
          yield* sql`INSERT INTO node_meta (key, value) VALUES ('session_secret', ${newToken()}) ON CONFLICT DO NOTHING`
          const rows = yield* sql<{ value: string }>`SELECT value FROM node_meta WHERE key = 'session_secret'`
          return rows[0].value
        })
    })

    /** Opens a session for a being; answers the token for the cookie. */
    const open = (beingId: string) =>
      Effect.gen(function* () {
        const token = newToken()
        const createdAt = yield* nowIso
        const expiresAt = yield* isoIn(SESSION_LIFETIME_MS)
        yield* sql`INSERT INTO sessions (id, token_hash, being_id, created_at, expires_at)
          VALUES (${newId()}, ${digest(token)}, ${beingId}, ${createdAt}, ${expiresAt})`
        return token
      })

    const resolve = (token: string) =>
      Effect.gen(function* () {
        const now = yield* nowIso
        // One query answers the session and its being, so `me` and every owner check need no second one.
        const rows = yield* sql<BeingRow & { sessionId: string }>`
          SELECT s.id AS sessionId, ${sql.literal(beingColumnsOf("b"))}
          FROM sessions s JOIN beings b ON b.id = s.being_id
          WHERE s.token_hash = ${digest(token)} AND s.expires_at > ${now}`
        const row = rows[0]
        if (row === undefined) return Option.none<SessionShape>()
        const being = toBeing(row)
        return Option.some<SessionShape>({ sessionId: row.sessionId, beingId: being.id, isOwner: being.isOwner, being })
      })

    const list = (session: SessionShape) =>
      Effect.gen(function* () {
        const now = yield* nowIso
        const rows = yield* sql<{ id: string; createdAt: string; expiresAt: string }>`
          SELECT id, created_at AS createdAt, expires_at AS expiresAt FROM sessions
          WHERE being_id = ${session.beingId} AND expires_at > ${now} ORDER BY created_at DESC`
        return rows.map((row) => ({ ...row, current: row.id === session.sessionId }))
      })

    /**
     * Announces the sessions a DELETE removed and answers how many: RETURNING, because changes()
     * could see another fiber's statement.
     */
    const announce = (rows: ReadonlyArray<{ readonly id: string }>) =>
      rows.length === 0 ? Effect.succeed(0) : Effect.as(PubSub.publish(revocations, rows.map((row) => row.id)), rows.length)

    const revoke = (session: SessionShape, id: string) =>
      sql<{ id: string }>`DELETE FROM sessions WHERE id = ${id} AND being_id = ${session.beingId} RETURNING id`.pipe(
        Effect.flatMap(announce)
      )

    const revokeOthers = (session: SessionShape) =>
      sql<{ id: string }>`DELETE FROM sessions WHERE being_id = ${session.beingId} AND id != ${session.sessionId} RETURNING id`.pipe(
        Effect.flatMap(announce)
      )

    /** Drops every session of a being: logout everywhere, a password reset, a suspension. */
    const revokeAll = (beingId: string) =>
      sql<{ id: string }>`DELETE FROM sessions WHERE being_id = ${beingId} RETURNING id`.pipe(Effect.flatMap(announce))

    const close = (token: string) =>
      sql<{ id: string }>`DELETE FROM sessions WHERE token_hash = ${digest(token)} RETURNING id`.pipe(
        Effect.flatMap(announce),
        Effect.asVoid
      )

    /** Ids of sessions as they are revoked, from the moment of subscribing. */
    const revoked = PubSub.subscribe(revocations)

    /** The sessions that are still valid, of those given: the rest were revoked or expired. */
    const stillValid = (ids: ReadonlyArray<string>) =>
      Effect.gen(function* () {
        if (ids.length === 0) return new Set<string>()
        const now = yield* nowIso
        const rows = yield* sql<{ id: string }>`SELECT id FROM sessions WHERE ${sql.in("id", ids)} AND expires_at > ${now}`
        return new Set(rows.map((row) => row.id))
      })

    return { cookieSecret, open, resolve, list, revoke, revokeOthers, revokeAll, close, revoked, stillValid } as const
  })
}) {}
