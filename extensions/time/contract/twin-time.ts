/**
 * The twin's to-dos and calendar as other features call them (the MCP server's tools): the same services and rules
 * as the time routes, for a being the caller names from its own authentication, never from a body.
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { ApiError } from "../../../kernel/contract/errors.ts"
import type { AgendaEntry, CalendarEvent, CreateEvent } from "./calendar.ts"
import type { CreateTodo, Todo, TodoStatus } from "./todos.ts"

export interface TwinTimeShape {
  /** As `GET /api/twin/todos`. */
  readonly listTodos: (
    beingId: string,
    query: { readonly status?: ReadonlyArray<TodoStatus>; readonly limit: number; readonly offset: number }
  ) => Effect.Effect<ReadonlyArray<Todo>>
  /** As `POST /api/twin/todos`. */
  readonly createTodo: (beingId: string, input: CreateTodo) => Effect.Effect<Todo>
  /** As `POST /api/twin/todos/:id/complete`: another being's to-do is not found. */
  readonly completeTodo: (beingId: string, id: string) => Effect.Effect<Todo, ApiError>
  /** As `GET /api/twin/calendar`: occurrences expanded, with the open due-dated signals. */
  readonly agenda: (beingId: string, from: string, to: string) => Effect.Effect<ReadonlyArray<AgendaEntry>, ApiError>
  /** As `POST /api/twin/calendar`. */
  readonly createEvent: (beingId: string, input: CreateEvent) => Effect.Effect<CalendarEvent, ApiError>
}

export class TwinTime extends Context.Tag("time/TwinTime")<TwinTime, TwinTimeShape>() {}
