/**
 * The twin's time routes: to-dos and the calendar (docs/api.md "Twin: time"). Every route needs
 * a session and touches only the caller's own rows: another being's is a 404, as a missing one is.
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as Schema from "effect/Schema"
import { InvalidRequest, NotFound, Unavailable } from "../../../kernel/contract/errors.ts"
import { Authentication } from "../../accounts/contract/session.ts"
import { Ok } from "../../accounts/contract/records.ts"
import { AgendaEntry, CalendarEvent, CalendarParams, CreateEvent, PatchEvent } from "./calendar.ts"
import { CreateTodo, DeferTodo, IdPath, PatchTodo, Todo, TodoListParams } from "./todos.ts"

const todoMove = <const Name extends string, const Path extends `/${string}`>(name: Name, path: Path) =>
  HttpApiEndpoint.post(name, path).setPath(IdPath).addSuccess(Todo).addError(NotFound.schema)

export class TwinTimeApi extends HttpApiGroup.make("twinTime")
  .add(HttpApiEndpoint.get("listTodos", "/twin/todos").setUrlParams(TodoListParams).addSuccess(Schema.Array(Todo)))
  .add(HttpApiEndpoint.post("createTodo", "/twin/todos").setPayload(CreateTodo).addSuccess(Todo))
  .add(HttpApiEndpoint.get("getTodo", "/twin/todos/:id").setPath(IdPath).addSuccess(Todo).addError(NotFound.schema))
  .add(HttpApiEndpoint.patch("patchTodo", "/twin/todos/:id").setPath(IdPath).setPayload(PatchTodo).addSuccess(Todo).addError(NotFound.schema))
  .add(todoMove("completeTodo", "/twin/todos/:id/complete"))
  .add(todoMove("deferTodo", "/twin/todos/:id/defer").setPayload(DeferTodo))
  .add(todoMove("dropTodo", "/twin/todos/:id/drop"))
  .add(HttpApiEndpoint.del("deleteTodo", "/twin/todos/:id").setPath(IdPath).addSuccess(Ok).addError(NotFound.schema))
  .add(HttpApiEndpoint.get("agenda", "/twin/calendar").setUrlParams(CalendarParams).addSuccess(Schema.Array(AgendaEntry)))
  .add(
    HttpApiEndpoint.post("createEvent", "/twin/calendar")
      .setPayload(CreateEvent)
      .addSuccess(CalendarEvent)
      .addError(InvalidRequest.schema)
      .addError(Unavailable.schema)
  )
  .add(HttpApiEndpoint.get("getEvent", "/twin/calendar/:id").setPath(IdPath).addSuccess(CalendarEvent).addError(NotFound.schema))
  .add(
    HttpApiEndpoint.patch("patchEvent", "/twin/calendar/:id")
      .setPath(IdPath)
      .setPayload(PatchEvent)
      .addSuccess(CalendarEvent)
      .addError(NotFound.schema)
      .addError(InvalidRequest.schema)
      .addError(Unavailable.schema)
  )
  .add(HttpApiEndpoint.del("deleteEvent", "/twin/calendar/:id").setPath(IdPath).addSuccess(Ok).addError(NotFound.schema))
  .middleware(Authentication)
  .prefix("/api")
{}
