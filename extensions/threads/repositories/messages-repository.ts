/** The `thread_messages` table: a thread's messages with their attachments and tool chips. */
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { JsonColumn, operation } from "../../../kernel/repository.ts"
import { Attachment, Message, ToolCallChip } from "../contract/records.ts"

export const StoredMessage = Schema.Struct({
  ...Message.fields,
  attachments: JsonColumn(Schema.Array(Attachment)),
  toolCalls: JsonColumn(Schema.Array(ToolCallChip))
})

const columns = `id, thread_id AS "threadId", role, author_id AS "authorId", content, attachments, tool_calls AS "toolCalls", created_at AS "createdAt"`

export class MessagesRepository extends Effect.Service<MessagesRepository>()("threads/MessagesRepository", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const all = sql.literal(columns)

    const insert = operation(
      "threads.insertMessage",
      SqlSchema.void({
        Request: StoredMessage,
        execute: (message) =>
          sql`INSERT INTO thread_messages (id, thread_id, role, author_id, content, attachments, tool_calls, created_at)
          VALUES (${message.id}, ${message.threadId}, ${message.role}, ${message.authorId}, ${message.content},
            ${message.attachments}, ${message.toolCalls}, ${message.createdAt})`
      })
    )

    /**
     * The message added to its thread only when the thread exists, in one statement: then the thread's title and
     * creation, and whether `beingId` is in it (and has not left); none when there is no such thread.
     */
    const insertIntoExisting = operation(
      "threads.insertIntoExisting",
      SqlSchema.findOne({
        Request: Schema.Struct({ message: StoredMessage, beingId: Schema.String }),
        Result: Schema.Struct({ title: Schema.String, createdAt: Schema.String, member: Schema.Number }),
        execute: ({ beingId, message }) =>
          sql`INSERT INTO thread_messages (id, thread_id, role, author_id, content, attachments, tool_calls, created_at)
          SELECT ${message.id}, t.id, ${message.role}, ${message.authorId}, ${message.content}, ${message.attachments},
            ${message.toolCalls}, ${message.createdAt} FROM threads t WHERE t.id = ${message.threadId}
          RETURNING (SELECT title FROM threads WHERE threads.id = thread_messages.thread_id) AS title,
            (SELECT created_at FROM threads WHERE threads.id = thread_messages.thread_id) AS "createdAt",
            CASE WHEN EXISTS (SELECT 1 FROM thread_participants p WHERE p.thread_id = thread_messages.thread_id
              AND p.being_id = ${beingId} AND p.left_at IS NULL) THEN 1 ELSE 0 END AS member`
      })
    )

    /** The newest `limit` messages of the thread, oldest first. */
    const recent = operation(
      "threads.recentMessages",
      SqlSchema.findAll({
        Request: Schema.Struct({ threadId: Schema.String, limit: Schema.Number }),
        Result: StoredMessage,
        execute: ({ threadId, limit }) =>
          sql`SELECT * FROM (SELECT ${all} FROM thread_messages WHERE thread_id = ${threadId}
          ORDER BY created_at DESC, id DESC LIMIT ${limit}) newest ORDER BY "createdAt", id`
      })
    )

    /** One message of the thread, by its id. */
    const find = operation(
      "threads.findMessage",
      SqlSchema.findOne({
        Request: Schema.Struct({ threadId: Schema.String, messageId: Schema.String }),
        Result: StoredMessage,
        execute: ({ threadId, messageId }) =>
          sql`SELECT ${all} FROM thread_messages WHERE thread_id = ${threadId} AND id = ${messageId}`
      })
    )

    return { insert, insertIntoExisting, recent, find } as const
  })
}) {}
