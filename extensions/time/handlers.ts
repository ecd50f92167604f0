/** Handlers of the twin's time routes: the caller comes from the session, never from a body. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { SignalReads } from "../../actors/being/contract/signal-reads.ts"
import { Calendar } from "./calendar.ts"
import { Todos } from "./todos.ts"
import { CurrentSession } from "../accounts/contract/session.ts"
import { apiOf } from "../../kernel/contract/node-api.ts"
import { TwinTimeApi } from "./contract/api.ts"
import { agenda } from "./agenda.ts"
import { ReminderSignalsLive } from "./reminders.ts"

export const TwinTimeHandlers = HttpApiBuilder.group(apiOf(TwinTimeApi), "twinTime", (handlers) =>
  Effect.gen(function* () {
    const todos = yield* Todos
    const calendar = yield* Calendar
    const signals = yield* SignalReads
    const caller = Effect.map(CurrentSession, (session) => session.beingId)
    return handlers
      .handle("listTodos", ({ urlParams }) => Effect.flatMap(caller, (beingId) => todos.list(beingId, urlParams)))
      .handle("createTodo", ({ payload }) => Effect.flatMap(caller, (beingId) => todos.create(beingId, payload)))
      .handle("getTodo", ({ path }) => Effect.flatMap(caller, (beingId) => todos.get(beingId, path.id)))
      .handle("patchTodo", ({ path, payload }) =>
        Effect.flatMap(caller, (beingId) => todos.patch(beingId, path.id, payload))
      )
      .handle("completeTodo", ({ path }) => Effect.flatMap(caller, (beingId) => todos.complete(beingId, path.id)))
      .handle("deferTodo", ({ path, payload }) =>
        Effect.flatMap(caller, (beingId) => todos.defer(beingId, path.id, payload.dueAt))
      )
      .handle("dropTodo", ({ path }) => Effect.flatMap(caller, (beingId) => todos.drop(beingId, path.id)))
      .handle("deleteTodo", ({ path }) => Effect.flatMap(caller, (beingId) => todos.remove(beingId, path.id)))
      .handle("agenda", ({ urlParams }) =>
        Effect.flatMap(caller, (beingId) => agenda(calendar, signals, beingId, urlParams.from, urlParams.to))
      )
      .handle("createEvent", ({ payload }) => Effect.flatMap(caller, (beingId) => calendar.create(beingId, payload)))
      .handle("getEvent", ({ path }) => Effect.flatMap(caller, (beingId) => calendar.get(beingId, path.id)))
      .handle("patchEvent", ({ path, payload }) =>
        Effect.flatMap(caller, (beingId) => calendar.patch(beingId, path.id, payload))
      )
      .handle("deleteEvent", ({ path }) => Effect.flatMap(caller, (beingId) => calendar.remove(beingId, path.id)))
  })
).pipe(Layer.provide(Layer.mergeAll(Todos.Default, Calendar.Default.pipe(Layer.provide(ReminderSignalsLive)))))
