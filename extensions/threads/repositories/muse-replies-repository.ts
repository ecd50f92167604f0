/**
 * The `muse_replies` table: a lease per thread on the Muse's reply, so one reply runs at a time on
 * the thread across every process that shares the database (docs/decisions.md "The Muse across
 * processes"). A row means a reply is held by `holder` (a token of one claim) until `expires_at`;
 * `again` says a message came while it ran; `message_id`, `text` and `tool_calls` are the round
 * streaming now as of the holder's last renewal, so whoever takes a dead holder's lease over can
 * store what was said. Every change is one compare-and-set statement, portable to both dialects.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { BooleanColumn, JsonColumn, operation } from "../../../kernel/repository.ts"
import { ToolCallChip } from "../contract/records.ts"

const ThreadId = Schema.Struct({ threadId: Schema.String })
const Held = Schema.Struct({ threadId: Schema.String, holder: Schema.String })
const Round = Schema.Struct({
  threadId: Schema.String,
  holder: Schema.String,
  messageId: Schema.String,
  expiresAt: Schema.String
})

export const ReplyLease = Schema.Struct({
  threadId: Schema.String,
  beingId: Schema.String,
  holder: Schema.String,
  messageId: Schema.NullOr(Schema.String),
  again: BooleanColumn,
  text: Schema.String,
  toolCalls: JsonColumn(Schema.Array(ToolCallChip)),
  expiresAt: Schema.String
})
export type ReplyLease = typeof ReplyLease.Type

const columns = `thread_id AS "threadId", being_id AS "beingId", holder, message_id AS "messageId", again, text,
  tool_calls AS "toolCalls", expires_at AS "expiresAt"`

export class MuseRepliesRepository extends Effect.Service<MuseRepliesRepository>()("threads/MuseRepliesRepository", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const all = sql.literal(columns)

    /**
     * Takes the thread's lease for `holder`, or, when someone holds it (alive or not), asks that
     * holder for one more round. Answers the lease as it is after: its holder is `holder` when it
     * was free, else the round in progress is `messageId`.
     */
    const claim = operation(
      "muse.claimReply",
      SqlSchema.single({
        Request: Schema.Struct({
          threadId: Schema.String,
          beingId: Schema.String,
          holder: Schema.String,
          expiresAt: Schema.String
        }),
        Result: Schema.Struct({ holder: Schema.String, messageId: Schema.NullOr(Schema.String) }),
        execute: ({ threadId, beingId, holder, expiresAt }) =>
          sql`INSERT INTO muse_replies (thread_id, being_id, holder, message_id, again, text, tool_calls, expires_at)
          VALUES (${threadId}, ${beingId}, ${holder}, NULL, 0, '', '[]', ${expiresAt})
          ON CONFLICT (thread_id) DO UPDATE SET again = 1
          RETURNING holder, message_id AS "messageId"`
      })
    )

    /** The holder's first round: its reply's id, and a fresh expiry; what came before it is read by it. */
    const begin = operation(
      "muse.beginRound",
      SqlSchema.findOne({
        Request: Round,
        Result: ThreadId,
        execute: ({ threadId, holder, messageId, expiresAt }) =>
          sql`UPDATE muse_replies SET message_id = ${messageId}, again = 0, text = '', tool_calls = '[]', expires_at = ${expiresAt}
          WHERE thread_id = ${threadId} AND holder = ${holder} RETURNING thread_id AS "threadId"`
      })
    )

    /** One more round, only when a message came meanwhile (`again`). */
    const next = operation(
      "muse.nextRound",
      SqlSchema.findOne({
        Request: Round,
        Result: ThreadId,
        execute: ({ threadId, holder, messageId, expiresAt }) =>
          sql`UPDATE muse_replies SET message_id = ${messageId}, again = 0, text = '', tool_calls = '[]', expires_at = ${expiresAt}
          WHERE thread_id = ${threadId} AND holder = ${holder} AND again = 1 RETURNING thread_id AS "threadId"`
      })
    )

    /** Keeps the lease and records the round so far; none when the lease was lost (taken over). */
    const renew = operation(
      "muse.renewReply",
      SqlSchema.findOne({
        Request: Schema.Struct({
          threadId: Schema.String,
          holder: Schema.String,
          expiresAt: Schema.String,
          text: Schema.String,
          toolCalls: JsonColumn(Schema.Array(ToolCallChip))
        }),
        Result: ThreadId,
        execute: ({ threadId, holder, expiresAt, text, toolCalls }) =>
          sql`UPDATE muse_replies SET expires_at = ${expiresAt}, text = ${text}, tool_calls = ${toolCalls}
          WHERE thread_id = ${threadId} AND holder = ${holder} RETURNING thread_id AS "threadId"`
      })
    )

    /** Gives the lease back, only when no message came meanwhile. */
    const release = operation(
      "muse.releaseReply",
      SqlSchema.findOne({
        Request: Held,
        Result: ThreadId,
        execute: ({ threadId, holder }) =>
          sql`DELETE FROM muse_replies WHERE thread_id = ${threadId} AND holder = ${holder} AND again = 0 RETURNING thread_id AS "threadId"`
      })
    )

    const holds = operation(
      "muse.holdsReply",
      SqlSchema.findOne({
        Request: Held,
        Result: ThreadId,
        execute: ({ threadId, holder }) =>
          sql`SELECT thread_id AS "threadId" FROM muse_replies WHERE thread_id = ${threadId} AND holder = ${holder}`
      })
    )

    /** Leases whose holder stopped renewing them before `now` (its process died or stalled). */
    const expired = operation(
      "muse.expiredReplies",
      SqlSchema.findAll({
        Request: Schema.String,
        Result: ReplyLease,
        execute: (now) => sql`SELECT ${all} FROM muse_replies WHERE expires_at < ${now} ORDER BY expires_at LIMIT 50`
      })
    )

    /** Takes an expired lease from `from` for `to`; one taker wins. */
    const takeOver = operation(
      "muse.takeOverReply",
      SqlSchema.findOne({
        Request: Schema.Struct({
          threadId: Schema.String,
          from: Schema.String,
          to: Schema.String,
          now: Schema.String,
          expiresAt: Schema.String
        }),
        Result: ThreadId,
        execute: ({ threadId, from, to, now, expiresAt }) =>
          sql`UPDATE muse_replies SET holder = ${to}, expires_at = ${expiresAt}
          WHERE thread_id = ${threadId} AND holder = ${from} AND expires_at < ${now} RETURNING thread_id AS "threadId"`
      })
    )

    return { claim, begin, next, renew, release, holds, expired, takeOver } as const
  })
}) {}
