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

    return { insert, recent, find } as const
  })
}) {}
