/** The `todos` table. Every operation is scoped to one being: another's row is not there. */
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { operation } from "../../kernel/repository.ts"
import { Todo, TodoStatus } from "./contract/todos.ts"

const columns = `id, being_id AS "beingId", title, notes, status, priority, due_at AS "dueAt", completed_at AS "completedAt",
  project_id AS "projectId", memory_id AS "memoryId", deferred_count AS "deferredCount", created_at AS "createdAt",
  updated_at AS "updatedAt"`

const Owned = Schema.Struct({ beingId: Schema.String, id: Schema.String })

/** The fields a change writes: the whole row but its identity and creation. */
const Change = Schema.Struct({
  ...Owned.fields,
  title: Schema.String,
  notes: Schema.String,
  status: TodoStatus,
  priority: Todo.fields.priority,
  dueAt: Schema.NullOr(Schema.String),
  completedAt: Schema.NullOr(Schema.String),
  projectId: Schema.NullOr(Schema.String),
  memoryId: Schema.NullOr(Schema.String),
  deferredCount: Schema.Int,
  updatedAt: Schema.String
})

export class TodosRepository extends Effect.Service<TodosRepository>()("time/TodosRepository", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const all = sql.literal(columns)

    const insert = operation(
      "todos.insert",
      SqlSchema.void({
        Request: Todo,
        execute: (todo) =>
          sql`INSERT INTO todos ${sql.insert({
            id: todo.id,
            being_id: todo.beingId,
            title: todo.title,
            notes: todo.notes,
            status: todo.status,
            priority: todo.priority,
            due_at: todo.dueAt,
            completed_at: todo.completedAt,
            project_id: todo.projectId,
            memory_id: todo.memoryId,
            deferred_count: todo.deferredCount,
            created_at: todo.createdAt,
            updated_at: todo.updatedAt
          })}`
      })
    )

    const find = operation(
      "todos.find",
      SqlSchema.findOne({
        Request: Owned,
        Result: Todo,
        execute: ({ beingId, id }) => sql`SELECT ${all} FROM todos WHERE id = ${id} AND being_id = ${beingId}`
      })
    )

    /** Writes a changed row; None when the being has no such to-do (any more). */
    const update = operation(
      "todos.update",
      SqlSchema.findOne({
        Request: Change,
        Result: Todo,
        execute: (
          change
        ) => sql`UPDATE todos SET title = ${change.title}, notes = ${change.notes}, status = ${change.status},
        priority = ${change.priority}, due_at = ${change.dueAt}, completed_at = ${change.completedAt},
        project_id = ${change.projectId}, memory_id = ${change.memoryId}, deferred_count = ${change.deferredCount},
        updated_at = ${change.updatedAt}
        WHERE id = ${change.id} AND being_id = ${change.beingId} RETURNING ${all}`
      })
    )

    /** Whether a row went. */
    const remove = operation(
      "todos.remove",
      SqlSchema.findOne({
        Request: Owned,
        Result: Schema.Struct({ id: Schema.String }),
        execute: ({ beingId, id }) => sql`DELETE FROM todos WHERE id = ${id} AND being_id = ${beingId} RETURNING id`
      })
    )

    /** Due soonest first, those without a due date last, then newest created. */
    const list = operation(
      "todos.list",
      SqlSchema.findAll({
        Request: Schema.Struct({
          beingId: Schema.String,
          statuses: Schema.NullOr(Schema.Array(TodoStatus)),
          projectId: Schema.NullOr(Schema.String),
          limit: Schema.Int,
          offset: Schema.Int
        }),
        Result: Todo,
        execute: ({
          beingId,
          statuses,
          projectId,
          limit,
          offset
        }) => sql`SELECT ${all} FROM todos WHERE being_id = ${beingId}
        ${statuses === null ? sql`` : sql`AND ${sql.in("status", statuses)}`}
        ${projectId === null ? sql`` : sql`AND project_id = ${projectId}`}
        ORDER BY CASE WHEN due_at IS NULL THEN 1 ELSE 0 END, due_at, created_at DESC, id DESC LIMIT ${limit} OFFSET ${offset}`
      })
    )

    return { insert, find, update, remove, list } as const
  })
}) {}
