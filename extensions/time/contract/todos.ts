/**
 * To-dos as the second document names them, with the request shapes of their routes. Plain
 * schemas only: the HTTP contract, and through it the web app, import this file.
 */
import * as Schema from "effect/Schema"
import { IsoDateInput, SignalPriority } from "../../../actors/being/contract/signal.ts"
import { PageOffset } from "../../../kernel/contract/page.ts"

export const TodoStatus = Schema.Literal("open", "done", "deferred", "dropped")
export type TodoStatus = typeof TodoStatus.Type

/** An id of this node (ours are 16 url-safe characters; others' up to 64). */
export const RecordId = Schema.String.pipe(
  Schema.pattern(/^[A-Za-z0-9_-]{1,64}$/, { message: () => "an id of 1 to 64 letters, digits, _ or -" })
)

export const IdPath = Schema.Struct({ id: RecordId })

export const Todo = Schema.Struct({
  id: Schema.String,
  beingId: Schema.String,
  title: Schema.String,
  notes: Schema.String,
  status: TodoStatus,
  priority: SignalPriority,
  dueAt: Schema.NullOr(Schema.String),
  completedAt: Schema.NullOr(Schema.String),
  projectId: Schema.NullOr(Schema.String),
  memoryId: Schema.NullOr(Schema.String),
  deferredCount: Schema.Int,
  createdAt: Schema.String,
  updatedAt: Schema.String
})
export type Todo = typeof Todo.Type

const Title = Schema.Trim.pipe(Schema.minLength(1, { message: () => "a title" }), Schema.maxLength(200))
const Notes = Schema.String.pipe(Schema.maxLength(4000))

/** Left out: notes "", priority normal, no due date, no project or memory. */
export const CreateTodo = Schema.Struct({
  title: Title,
  notes: Schema.optional(Notes),
  priority: Schema.optional(SignalPriority),
  dueAt: Schema.optional(Schema.NullOr(IsoDateInput)),
  projectId: Schema.optional(Schema.NullOr(RecordId)),
  memoryId: Schema.optional(Schema.NullOr(RecordId))
})
export type CreateTodo = typeof CreateTodo.Type

/** Any of the create fields; a field left out is left as it is, a null clears it. */
export const PatchTodo = Schema.Struct({ ...CreateTodo.fields, title: Schema.optional(Title) })
export type PatchTodo = typeof PatchTodo.Type

/** Without `dueAt` a deferral moves the to-do 24 hours on from now. */
export const DeferTodo = Schema.Struct({ dueAt: Schema.optional(IsoDateInput) })

export const TODO_LIST_MAX = 500

/** `status` is a comma list (`open,deferred`); every part must be a status. */
export const TodoListParams = Schema.Struct({
  status: Schema.optional(Schema.compose(Schema.split(","), Schema.Array(TodoStatus))),
  projectId: Schema.optional(RecordId),
  limit: Schema.optionalWith(Schema.NumberFromString.pipe(Schema.int(), Schema.between(1, TODO_LIST_MAX)), {
    default: () => 100
  }),
  offset: Schema.optionalWith(PageOffset, { default: () => 0 })
})
