/** The `threads` and `thread_participants` tables: which threads a being is in, and leaving them. */
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { isIn, operation } from "../../../kernel/repository.ts"
import { ThreadKind } from "../contract/records.ts"

export const StoredThread = Schema.Struct({
  id: Schema.String,
  kind: ThreadKind,
  title: Schema.String,
  createdAt: Schema.String,
  /** The newest message's text and time, when there is one. */
  lastContent: Schema.NullOr(Schema.String),
  lastMessageAt: Schema.NullOr(Schema.String)
})
export type StoredThread = typeof StoredThread.Type

const NewThreadRow = Schema.Struct({
  id: Schema.String,
  kind: ThreadKind,
  title: Schema.String,
  createdAt: Schema.String
})
const Membership = Schema.Struct({ threadId: Schema.String, beingId: Schema.String })

export class ThreadsRepository extends Effect.Service<ThreadsRepository>()("threads/ThreadsRepository", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const columns = sql.literal(`t.id, t.kind, t.title, t.created_at AS "createdAt",
      (SELECT m.content FROM thread_messages m WHERE m.thread_id = t.id ORDER BY m.created_at DESC, m.id DESC LIMIT 1) AS "lastContent",
      (SELECT MAX(m.created_at) FROM thread_messages m WHERE m.thread_id = t.id) AS "lastMessageAt"`)

    const insert = operation(
      "threads.insert",
      SqlSchema.void({
        Request: Schema.Struct({ thread: NewThreadRow, participants: Schema.Array(Schema.String) }),
        execute: ({ thread, participants }) =>
          Effect.zipRight(
            sql`INSERT INTO threads (id, kind, title, created_at) VALUES (${thread.id}, ${thread.kind}, ${thread.title}, ${thread.createdAt})`,
            sql`INSERT INTO thread_participants ${sql.insert(participants.map((beingId) => ({ thread_id: thread.id, being_id: beingId })))}`
          )
      })
    )

    /**
     * A thread with a known id, made if it is not there yet (an agent thread is named after its
     * project, and two of the project's tasks may write the first note at once).
     */
    const ensure = operation(
      "threads.ensure",
      SqlSchema.void({
        Request: Schema.Struct({ thread: NewThreadRow, participants: Schema.Array(Schema.String) }),
        execute: ({ thread, participants }) =>
          Effect.zipRight(
            sql`INSERT INTO threads (id, kind, title, created_at) VALUES (${thread.id}, ${thread.kind}, ${thread.title}, ${thread.createdAt})
            ON CONFLICT (id) DO NOTHING`,
            sql`INSERT INTO thread_participants ${sql.insert(participants.map((beingId) => ({ thread_id: thread.id, being_id: beingId })))}
            ON CONFLICT (thread_id, being_id) DO NOTHING`
          )
      })
    )

    /**
     * A page of the threads the being is in (and has not left), newest activity first (the id breaks a tie). The
     * page is chosen on the threads' activity alone; the newest message's text is read for the page's rows only.
     */
    const listFor = operation(
      "threads.listFor",
      SqlSchema.findAll({
        Request: Schema.Struct({
          beingId: Schema.String,
          kind: Schema.NullOr(ThreadKind),
          limit: Schema.Int,
          offset: Schema.Int
        }),
        Result: StoredThread,
        execute: ({ beingId, kind, limit, offset }) =>
          // PostgreSQL reads an output column's alias in ORDER BY only alone, not inside an expression: hence `activity`.
          sql`SELECT ${columns} FROM (SELECT t.id,
            COALESCE((SELECT MAX(m.created_at) FROM thread_messages m WHERE m.thread_id = t.id), t.created_at) AS activity
            FROM threads t JOIN thread_participants p ON p.thread_id = t.id
            WHERE p.being_id = ${beingId} AND p.left_at IS NULL ${kind === null ? sql`` : sql`AND t.kind = ${kind}`}
            ORDER BY activity DESC, t.id DESC LIMIT ${limit} OFFSET ${offset}) page
          JOIN threads t ON t.id = page.id
          ORDER BY page.activity DESC, t.id DESC`
      })
    )

    /** The thread when the being is in it; none for anyone else, so another's thread reads as missing. */
    const findFor = operation(
      "threads.findFor",
      SqlSchema.findOne({
        Request: Membership,
        Result: StoredThread,
        execute: ({ threadId, beingId }) =>
          sql`SELECT ${columns} FROM threads t JOIN thread_participants p ON p.thread_id = t.id
          WHERE t.id = ${threadId} AND p.being_id = ${beingId} AND p.left_at IS NULL`
      })
    )

    const exists = operation(
      "threads.exists",
      SqlSchema.findOne({
        Request: Schema.String,
        Result: Schema.Struct({ id: Schema.String }),
        execute: (id) => sql`SELECT id FROM threads WHERE id = ${id}`
      })
    )

    /** Everyone in the thread who has not left it. */
    const participants = operation(
      "threads.participants",
      SqlSchema.findAll({
        Request: Schema.String,
        Result: Schema.Struct({ beingId: Schema.String }),
        execute: (threadId) =>
          sql`SELECT being_id AS "beingId" FROM thread_participants WHERE thread_id = ${threadId} AND left_at IS NULL ORDER BY being_id`
      })
    )

    /** The beings still in each of these threads, in one statement (an inbox's list), by thread then being. */
    const participantsOfThreads = operation(
      "threads.participantsOfThreads",
      SqlSchema.findAll({
        Request: Schema.Array(Schema.String),
        Result: Schema.Struct({ threadId: Schema.String, beingId: Schema.String }),
        execute: (threadIds) =>
          sql`SELECT thread_id AS "threadId", being_id AS "beingId" FROM thread_participants
            WHERE ${isIn(sql, "thread_id", threadIds)} AND left_at IS NULL ORDER BY thread_id, being_id`
      })
    )

    /** The direct thread both beings are still in, if any. */
    const findDirect = operation(
      "threads.findDirect",
      SqlSchema.findOne({
        Request: Schema.Struct({ beingId: Schema.String, otherId: Schema.String }),
        Result: Schema.Struct({ id: Schema.String }),
        execute: ({ beingId, otherId }) =>
          sql`SELECT t.id FROM threads t
          JOIN thread_participants a ON a.thread_id = t.id AND a.being_id = ${beingId} AND a.left_at IS NULL
          JOIN thread_participants b ON b.thread_id = t.id AND b.being_id = ${otherId} AND b.left_at IS NULL
          WHERE t.kind = 'direct' ORDER BY t.created_at LIMIT 1`
      })
    )

    /** The being leaves the thread; a thread nobody is left in goes, with its messages. */
    const leave = operation(
      "threads.leave",
      SqlSchema.void({
        Request: Schema.Struct({ threadId: Schema.String, beingId: Schema.String, at: Schema.String }),
        execute: ({ threadId, beingId, at }) =>
          Effect.zipRight(
            sql`UPDATE thread_participants SET left_at = ${at} WHERE thread_id = ${threadId} AND being_id = ${beingId}`,
            sql`DELETE FROM threads WHERE id = ${threadId}
            AND NOT EXISTS (SELECT 1 FROM thread_participants p WHERE p.thread_id = ${threadId} AND p.left_at IS NULL)`
          )
      })
    )

    return {
      insert,
      ensure,
      listFor,
      findFor,
      exists,
      participants,
      participantsOfThreads,
      findDirect,
      leave
    } as const
  })
}) {}
