/**
 * The `sessions` table: a session is found by the digest of its token, never by the token.
 * Deletions answer the ids they removed (RETURNING: changes() could count another fiber's
 * statement), so each revocation can be announced to the live channel.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { operation } from "../../../kernel/repository.ts"
import type { SessionShape } from "../contract/session.ts"
import { beingColumnsOf, BeingRow } from "./beings-reads.ts"

const IdRow = Schema.Struct({ id: Schema.String })
const idsOf = (rows: ReadonlyArray<typeof IdRow.Type>) => rows.map((row) => row.id)

const SessionRow = Schema.Struct({ id: Schema.String, createdAt: Schema.String, expiresAt: Schema.String })

/** A session joined to its being: what a signed-in request reads when the session cache misses. */
const ResolvedRow = Schema.Struct({ sessionId: Schema.String, sessionExpiresAt: Schema.String, ...BeingRow.fields })

/** A live session as resolved, with when it expires (the session cache checks it on every read). */
export interface Resolved {
  readonly session: SessionShape
  readonly expiresAt: string
}

export class SessionsRepository extends Effect.Service<SessionsRepository>()("auth/SessionsRepository", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const being = sql.literal(beingColumnsOf("b"))

    const insert = operation(
      "auth.insertSession",
      SqlSchema.void({
        Request: Schema.Struct({ ...SessionRow.fields, tokenHash: Schema.String, beingId: Schema.String }),
        execute: (row) => sql`INSERT INTO sessions (id, token_hash, being_id, created_at, expires_at)
        VALUES (${row.id}, ${row.tokenHash}, ${row.beingId}, ${row.createdAt}, ${row.expiresAt})`
      })
    )

    const findResolved = SqlSchema.findOne({
      Request: Schema.Struct({ tokenHash: Schema.String, now: Schema.String }),
      Result: ResolvedRow,
      execute: ({ tokenHash, now }) => sql`SELECT s.id AS "sessionId", s.expires_at AS "sessionExpiresAt", ${being}
        FROM sessions s JOIN beings b ON b.id = s.being_id
        WHERE s.token_hash = ${tokenHash} AND s.expires_at > ${now}`
    })

    /**
     * The live session with this token digest and its being, in ONE statement: a signed-in
     * request the session cache cannot answer runs it (`me` and every owner check need no second
     * query), so it stays this cheap.
     */
    const resolve = operation("auth.resolveSession", (request: { readonly tokenHash: string; readonly now: string }) =>
      Effect.map(
        findResolved(request),
        Option.map(
          ({ sessionId, sessionExpiresAt, ...being }): Resolved => ({
            session: { sessionId, beingId: being.id, isOwner: being.isOwner, being },
            expiresAt: sessionExpiresAt
          })
        )
      )
    )

    const listLive = operation(
      "auth.listLiveSessions",
      SqlSchema.findAll({
        Request: Schema.Struct({ beingId: Schema.String, now: Schema.String }),
        Result: SessionRow,
        execute: ({ beingId, now }) => sql`SELECT id, created_at AS "createdAt", expires_at AS "expiresAt" FROM sessions
        WHERE being_id = ${beingId} AND expires_at > ${now} ORDER BY created_at DESC`
      })
    )

    /** A statement that answers ids (a deletion's RETURNING, a lookup), as an operation answering the ids. */
    const answeringIds = <I>(
      name: string,
      Request: Schema.Schema<I>,
      execute: (request: I) => Effect.Effect<ReadonlyArray<unknown>, SqlError>
    ) => {
      const run = SqlSchema.findAll({ Request, Result: IdRow, execute })
      return operation(name, (request: I) => Effect.map(run(request), idsOf))
    }

    const deleteOne = answeringIds(
      "auth.deleteSession",
      Schema.Struct({ id: Schema.String, beingId: Schema.String }),
      ({ id, beingId }) => sql`DELETE FROM sessions WHERE id = ${id} AND being_id = ${beingId} RETURNING id`
    )

    const deleteOthers = answeringIds(
      "auth.deleteOtherSessions",
      Schema.Struct({ beingId: Schema.String, keep: Schema.String }),
      ({ beingId, keep }) => sql`DELETE FROM sessions WHERE being_id = ${beingId} AND id != ${keep} RETURNING id`
    )

    const deleteAll = answeringIds(
      "auth.deleteAllSessions",
      Schema.String,
      (beingId) => sql`DELETE FROM sessions WHERE being_id = ${beingId} RETURNING id`
    )

    const deleteByToken = answeringIds(
      "auth.deleteSessionByToken",
      Schema.String,
      (tokenHash) => sql`DELETE FROM sessions WHERE token_hash = ${tokenHash} RETURNING id`
    )

    /** Of the given sessions, the ids of those still live. */
    const live = answeringIds(
      "auth.liveSessions",
      Schema.Struct({ ids: Schema.Array(Schema.String), now: Schema.String }),
      ({ ids, now }) => sql`SELECT id FROM sessions WHERE ${sql.in("id", ids)} AND expires_at > ${now}`
    )

    return { insert, resolve, listLive, deleteOne, deleteOthers, deleteAll, deleteByToken, live } as const
  })
}) {}
