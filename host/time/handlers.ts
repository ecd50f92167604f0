/** Handlers of the twin's time routes: the caller comes from the session, never from a body. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { Todos } from "../../extensions/time/todos.ts"
import { CurrentSession } from "../auth/contract/session.ts"
import { NodeApi } from "../contract/api.ts"

export const TwinTimeHandlers = HttpApiBuilder.group(NodeApi, "twinTime", (handlers) =>
  Effect.gen(function* () {
    const todos = yield* Todos
    const caller = Effect.map(CurrentSession, (session) => session.beingId)
    return handlers
      .handle("listTodos", ({ urlParams }) => Effect.flatMap(caller, (beingId) => todos.list(beingId, urlParams)))
      .handle("createTodo", ({ payload }) => Effect.flatMap(caller, (beingId) => todos.create(beingId, payload)))
      .handle("getTodo", ({ path }) => Effect.flatMap(caller, (beingId) => todos.get(beingId, path.id)))
      .handle("patchTodo", ({ path, payload }) => Effect.flatMap(caller, (beingId) => todos.patch(beingId, path.id, payload)))
      .handle("completeTodo", ({ path }) => Effect.flatMap(caller, (beingId) => todos.complete(beingId, path.id)))
      .handle("deferTodo", ({ path, payload }) => Effect.flatMap(caller, (beingId) => todos.defer(beingId, path.id, payload.dueAt)))
      .handle("dropTodo", ({ path }) => Effect.flatMap(caller, (beingId) => todos.drop(beingId, path.id)))
      .handle("deleteTodo", ({ path }) => Effect.flatMap(caller, (beingId) => todos.remove(beingId, path.id)))
  })
).pipe(Layer.provide(Todos.Default))
