/**
 * The twin's time routes: to-dos and the calendar (docs/api.md "Twin: time"). Every route needs
 * a session and touches only the caller's own rows: another being's is a 404, as a missing one is.
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import { InvalidRequest, NotFound, Unavailable } from "../../../kernel/contract/errors.ts"
import { Authentication } from "../../accounts/contract/session.ts"
import { Ok } from "../../accounts/contract/records.ts"
import { AgendaEntry, CalendarEvent, CalendarParams, CreateEvent, PatchEvent } from "./calendar.ts"
import { CreateTodo, DeferTodo, IdPath, PatchTodo, Todo, TodoListParams } from "./todos.ts"

const todoMove = <const Name extends string, const Path extends `/${string}`>(name: Name, path: Path) =>
  HttpApiEndpoint.post(name, path).setPath(IdPath).addSuccess(Todo).addError(NotFound.schema)

export class TwinTimeApi extends HttpApiGroup.make("twinTime")
  .annotate(OpenApi.Description, "The twin's to-dos and calendar, the signed-in being's own.")
  .add(
    HttpApiEndpoint.get("listTodos", "/twin/todos")
      .annotate(OpenApi.Summary, "List to-dos")
      .annotate(
        OpenApi.Description,
        "The caller's to-dos, due soonest first, filtered by `status` (a comma list) and `projectId`, at most " +
          "`limit` (1..500) and `offset` (0..1,000,000) skipped. Any session."
      )
      .setUrlParams(TodoListParams)
      .addSuccess(Schema.Array(Todo))
  )
  .add(
    HttpApiEndpoint.post("createTodo", "/twin/todos")
      .annotate(OpenApi.Summary, "Create a to-do")
      .annotate(OpenApi.Description, "Creates an open to-do of the caller's. Any session.")
      .setPayload(CreateTodo)
      .addSuccess(Todo)
  )
  .add(
    HttpApiEndpoint.get("getTodo", "/twin/todos/:id")
      .annotate(OpenApi.Summary, "Get a to-do")
      .annotate(OpenApi.Description, "One of the caller's to-dos. Any session. Refusals: 404 `not_found`.")
      .setPath(IdPath)
      .addSuccess(Todo)
      .addError(NotFound.schema)
  )
  .add(
    HttpApiEndpoint.patch("patchTodo", "/twin/todos/:id")
      .annotate(OpenApi.Summary, "Change a to-do")
      .annotate(
        OpenApi.Description,
        "Changes the fields given; null clears `dueAt`, `projectId`, `memoryId`. Any session, the caller's own. " +
          "Refusals: 404 `not_found`."
      )
      .setPath(IdPath)
      .setPayload(PatchTodo)
      .addSuccess(Todo)
      .addError(NotFound.schema)
  )
  .add(
    todoMove("completeTodo", "/twin/todos/:id/complete")
      .annotate(OpenApi.Summary, "Complete a to-do")
      .annotate(
        OpenApi.Description,
        "Marks the to-do `done`. Any session, the caller's own. Refusals: 404 `not_found`."
      )
  )
  .add(
    todoMove("deferTodo", "/twin/todos/:id/defer")
      .annotate(OpenApi.Summary, "Defer a to-do")
      .annotate(
        OpenApi.Description,
        "Marks the to-do `deferred` until the given time (24 hours from now by default). Any session, the " +
          "caller's own. Refusals: 404 `not_found`."
      )
      .setPayload(DeferTodo)
  )
  .add(
    todoMove("dropTodo", "/twin/todos/:id/drop")
      .annotate(OpenApi.Summary, "Drop a to-do")
      .annotate(
        OpenApi.Description,
        "Marks the to-do `dropped` (abandoned, not done). Any session, the caller's own. Refusals: 404 " +
          "`not_found`."
      )
  )
  .add(
    HttpApiEndpoint.del("deleteTodo", "/twin/todos/:id")
      .annotate(OpenApi.Summary, "Delete a to-do")
      .annotate(OpenApi.Description, "Deletes one of the caller's to-dos. Any session. Refusals: 404 `not_found`.")
      .setPath(IdPath)
      .addSuccess(Ok)
      .addError(NotFound.schema)
  )
  .add(
    HttpApiEndpoint.get("agenda", "/twin/calendar")
      .annotate(OpenApi.Summary, "The agenda")
      .annotate(
        OpenApi.Description,
        "Every occurrence of the caller's events in the range `from`..`to` (repeating ones expanded) and their " +
          "open due-dated signals, soonest first. Any session."
      )
      .setUrlParams(CalendarParams)
      .addSuccess(Schema.Array(AgendaEntry))
  )
  .add(
    HttpApiEndpoint.post("createEvent", "/twin/calendar")
      .annotate(OpenApi.Summary, "Create a calendar event")
      .annotate(
        OpenApi.Description,
        "Creates an event of the caller's, optionally repeating (an RFC 5545 RRULE) and with a reminder. Any " +
          "session. Refusals: 400 `invalid_request` (a bad date or rule)."
      )
      .setPayload(CreateEvent)
      .addSuccess(CalendarEvent)
      .addError(InvalidRequest.schema)
      .addError(Unavailable.schema)
  )
  .add(
    HttpApiEndpoint.get("getEvent", "/twin/calendar/:id")
      .annotate(OpenApi.Summary, "Get a calendar event")
      .annotate(OpenApi.Description, "One of the caller's events. Any session. Refusals: 404 `not_found`.")
      .setPath(IdPath)
      .addSuccess(CalendarEvent)
      .addError(NotFound.schema)
  )
  .add(
    HttpApiEndpoint.patch("patchEvent", "/twin/calendar/:id")
      .annotate(OpenApi.Summary, "Change a calendar event")
      .annotate(
        OpenApi.Description,
        "Changes the fields given (null clears). Any session, the caller's own. Refusals: 404 `not_found`."
      )
      .setPath(IdPath)
      .setPayload(PatchEvent)
      .addSuccess(CalendarEvent)
      .addError(NotFound.schema)
      .addError(InvalidRequest.schema)
      .addError(Unavailable.schema)
  )
  .add(
    HttpApiEndpoint.del("deleteEvent", "/twin/calendar/:id")
      .annotate(OpenApi.Summary, "Delete a calendar event")
      .annotate(OpenApi.Description, "Deletes one of the caller's events. Any session. Refusals: 404 `not_found`.")
      .setPath(IdPath)
      .addSuccess(Ok)
      .addError(NotFound.schema)
  )
  .middleware(Authentication)
  .prefix("/api") {}
