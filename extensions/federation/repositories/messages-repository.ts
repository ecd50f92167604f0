/**
 * `federation_messages`: one row per federated document and peer, both ways. Inbound rows are
 * the documents deliver accepted (landed in a thread); outbound rows are the outbox the courier
 * drains, each holding the signed inner documents it seals afresh at every attempt.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { BooleanColumn, isIn, JsonColumn, operation } from "../../../kernel/repository.ts"
import { FederatedMessage, MessageKind, MessageState } from "../contract/records.ts"
import { EnvelopeBody } from "../contract/wire.ts"

const StoredMessage = Schema.Struct({ ...FederatedMessage.fields, sealed: BooleanColumn, verified: BooleanColumn })

/** A row with the thread message it carried or landed (null for a post, or before it landed). */
const ThreadWireRow = Schema.Struct({ ...StoredMessage.fields, localMessageId: Schema.NullOr(Schema.String) })
export type ThreadWireRow = typeof ThreadWireRow.Type

/** An outbound row the courier may send now, with what it seals. */
const DueRow = Schema.Struct({ ...StoredMessage.fields, document: JsonColumn(EnvelopeBody) })
export type DueRow = typeof DueRow.Type

const columns = `id, direction, kind, thread_id AS "threadId", message_id AS "messageId", peer_did AS "peerDid",
  author_did AS "authorDid", audience_did AS "audienceDid", digest, sealed, state, attempts,
  next_attempt_at AS "nextAttemptAt", last_error AS "lastError", verified, created_at AS "createdAt", updated_at AS "updatedAt"`

/** How one attempt ended for a row: its state, count and next time. */
const Settlement = Schema.Struct({
  id: Schema.String,
  state: MessageState,
  attempts: Schema.Int,
  nextAttemptAt: Schema.NullOr(Schema.String),
  lastError: Schema.NullOr(Schema.String),
  updatedAt: Schema.String
})
export type Settlement = typeof Settlement.Type

export class MessagesRepository extends Effect.Service<MessagesRepository>()("federation/MessagesRepository", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const all = sql.literal(columns)

    /**
     * Stores a document row; false when one with its digest for that peer and direction is
     * there already (an inbound replay, an outbound message queued twice).
     */
    const insert = operation(
      "federation.insertMessage",
      (input: {
        readonly row: FederatedMessage
        readonly document: EnvelopeBody
        readonly localMessageId: string | null
      }) => {
        const { row, document } = input
        return Effect.map(
          sql`INSERT INTO federation_messages ${sql.insert({
            id: row.id,
            direction: row.direction,
            kind: row.kind,
            thread_id: row.threadId,
            message_id: row.messageId,
            local_message_id: input.localMessageId,
            peer_did: row.peerDid,
            author_did: row.authorDid,
            audience_did: row.audienceDid,
            digest: row.digest,
            sealed: row.sealed ? 1 : 0,
            state: row.state,
            attempts: row.attempts,
            next_attempt_at: row.nextAttemptAt,
            last_error: row.lastError,
            verified: row.verified ? 1 : 0,
            document: JSON.stringify(document),
            created_at: row.createdAt,
            updated_at: row.updatedAt
          })} ON CONFLICT (direction, digest, peer_did) DO NOTHING RETURNING id`,
          (rows) => rows.length === 1
        )
      }
    )

    const listByPeer = operation(
      "federation.messagesOfPeer",
      SqlSchema.findAll({
        Request: Schema.String,
        Result: StoredMessage,
        execute: (peerDid) =>
          sql`SELECT ${all} FROM federation_messages WHERE peer_did = ${peerDid} ORDER BY created_at, id`
      })
    )

    const listByThread = operation(
      "federation.messagesOfThread",
      SqlSchema.findAll({
        Request: Schema.String,
        Result: ThreadWireRow,
        execute: (threadId) =>
          sql`SELECT ${all}, local_message_id AS "localMessageId" FROM federation_messages WHERE thread_id = ${threadId} ORDER BY created_at, id`
      })
    )

    /** A page of the outbox of one kind, newest first. */
    const outbox = operation(
      "federation.outbox",
      SqlSchema.findAll({
        Request: Schema.Struct({ kind: MessageKind, limit: Schema.Int, offset: Schema.Int }),
        Result: StoredMessage,
        execute: ({ kind, limit, offset }) =>
          sql`SELECT ${all} FROM federation_messages WHERE direction = 'out' AND kind = ${kind}
            ORDER BY created_at DESC, id DESC LIMIT ${limit} OFFSET ${offset}`
      })
    )

    /** Queued outbound rows whose time has come, oldest due first; at most `limit` (one courier run's share). */
    const due = operation(
      "federation.dueMessages",
      SqlSchema.findAll({
        Request: Schema.Struct({ now: Schema.String, limit: Schema.Int }),
        Result: DueRow,
        execute: ({ now, limit }) =>
          sql`SELECT ${all}, document FROM federation_messages
          WHERE direction = 'out' AND state = 'queued' AND next_attempt_at <= ${now}
          ORDER BY next_attempt_at, created_at, id LIMIT ${limit}`
      })
    )

    /**
     * When a peer in backoff is next tried: the latest next attempt among its rows that failed
     * before and wait (None: it is not in backoff). A row queued for it meanwhile waits as long.
     */
    const backoffOf = operation(
      "federation.backoffOf",
      SqlSchema.findOne({
        Request: Schema.String,
        Result: Schema.Struct({ until: Schema.String }),
        execute: (peerDid) =>
          sql`SELECT MAX(next_attempt_at) AS until FROM federation_messages
          WHERE direction = 'out' AND peer_did = ${peerDid} AND state = 'queued' AND attempts > 0 HAVING MAX(next_attempt_at) IS NOT NULL`
      })
    )

    const settle = operation(
      "federation.settleMessage",
      SqlSchema.void({
        Request: Settlement,
        execute: (s) =>
          sql`UPDATE federation_messages SET state = ${s.state}, attempts = ${s.attempts}, next_attempt_at = ${s.nextAttemptAt},
          last_error = ${s.lastError}, updated_at = ${s.updatedAt} WHERE id = ${s.id}`
      })
    )

    /** Stuck outbound rows back in the queue, due now, their count of attempts begun again; answers how many. */
    const requeueStuck = operation("federation.requeueStuck", (now: string) =>
      Effect.map(
        sql`UPDATE federation_messages SET state = 'queued', attempts = 0, next_attempt_at = ${now}, updated_at = ${now}
          WHERE direction = 'out' AND state = 'stuck' RETURNING id`,
        (rows) => rows.length
      )
    )

    /**
     * Collect's acknowledgement: rows handed to that peer (`sending`) whose digests it names are
     * delivered; answers how many. Keyed on the peer alone: no digest reaches another's queue.
     */
    const acknowledge = operation(
      "federation.acknowledge",
      (input: { readonly peerDid: string; readonly digests: ReadonlyArray<string>; readonly at: string }) =>
        input.digests.length === 0
          ? Effect.succeed(0)
          : Effect.map(
              sql`UPDATE federation_messages SET state = 'delivered', next_attempt_at = NULL, last_error = NULL, updated_at = ${input.at}
            WHERE direction = 'out' AND kind = 'message' AND peer_did = ${input.peerDid} AND state = 'sending' AND ${sql.in("digest", input.digests)}
            RETURNING id`,
              (rows) => rows.length
            )
    )

    /**
     * What a collecting peer is handed: its direct messages still waiting (queued, or handed
     * before and not acknowledged: at-least-once), oldest first, never a square post.
     */
    const collectable = operation(
      "federation.collectable",
      SqlSchema.findAll({
        Request: Schema.Struct({ peerDid: Schema.String, limit: Schema.Int }),
        Result: DueRow,
        execute: ({ peerDid, limit }) =>
          sql`SELECT ${all}, document FROM federation_messages
          WHERE direction = 'out' AND kind = 'message' AND peer_did = ${peerDid} AND state IN ('queued', 'sending')
          ORDER BY created_at, id LIMIT ${limit}`
      })
    )

    const countCollectable = SqlSchema.findAll({
      Request: Schema.String,
      Result: Schema.Struct({ count: Schema.Number }),
      execute: (peerDid) =>
        sql`SELECT COUNT(*) AS count FROM federation_messages
          WHERE direction = 'out' AND kind = 'message' AND peer_did = ${peerDid} AND state IN ('queued', 'sending')`
    })
    const waitingFor = operation("federation.waitingFor", (peerDid: string) =>
      Effect.map(countCollectable(peerDid), (rows) => rows[0]?.count ?? 0)
    )

    /**
     * How many of each thread's outbound rows wait (queued or sending) and how many are stuck, in one statement for
     * all of them (a page of conversations); a thread with no outbound row is not in the answer.
     */
    const countsOfThreads = operation(
      "federation.outboxOfThreads",
      SqlSchema.findAll({
        Request: Schema.Array(Schema.String),
        Result: Schema.Struct({ threadId: Schema.String, queued: Schema.Number, stuck: Schema.Number }),
        execute: (threadIds) =>
          sql`SELECT thread_id AS "threadId",
            SUM(CASE WHEN state IN ('queued', 'sending') THEN 1 ELSE 0 END) AS queued,
            SUM(CASE WHEN state = 'stuck' THEN 1 ELSE 0 END) AS stuck
            FROM federation_messages WHERE ${isIn(sql, "thread_id", threadIds)} AND direction = 'out'
            GROUP BY thread_id`
      })
    )

    /** Threads with wire rows of this peer: what deleting the peer leaves without their courier. */
    const countThreads = SqlSchema.findAll({
      Request: Schema.String,
      Result: Schema.Struct({ count: Schema.Number }),
      execute: (peerDid) =>
        sql`SELECT COUNT(DISTINCT thread_id) AS count FROM federation_messages WHERE peer_did = ${peerDid} AND thread_id IS NOT NULL`
    })
    const threadsOfPeer = operation("federation.threadsOfPeer", (peerDid: string) =>
      Effect.map(countThreads(peerDid), (rows) => rows[0]?.count ?? 0)
    )

    /** The outbound rows that carried one of this node's square posts, one per peer it went to. */
    const postRows = operation(
      "federation.postRows",
      SqlSchema.findAll({
        Request: Schema.String,
        Result: StoredMessage,
        execute: (postId) =>
          sql`SELECT ${all} FROM federation_messages WHERE direction = 'out' AND kind = 'post' AND message_id = ${postId} ORDER BY created_at, id`
      })
    )

    /** A post hidden or deleted before it left: its waiting rows never go (refused, with why). */
    const withdrawPost = operation(
      "federation.withdrawPost",
      SqlSchema.void({
        Request: Schema.Struct({ postId: Schema.String, at: Schema.String }),
        execute: ({ postId, at }) =>
          sql`UPDATE federation_messages SET state = 'refused', next_attempt_at = NULL, updated_at = ${at},
          last_error = 'withdrawn: the post was hidden or deleted before it left'
          WHERE direction = 'out' AND kind = 'post' AND message_id = ${postId} AND state IN ('queued', 'stuck')`
      })
    )

    return {
      postRows,
      withdrawPost,
      insert,
      listByPeer,
      listByThread,
      outbox,
      due,
      backoffOf,
      settle,
      requeueStuck,
      acknowledge,
      collectable,
      waitingFor,
      countsOfThreads,
      threadsOfPeer
    } as const
  })
}) {}
