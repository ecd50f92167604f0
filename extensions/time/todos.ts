/**
 * A being's to-dos and their moves: complete (done, completedAt set), defer (deferred, due
 * again at the given time or 24 hours from now, deferredCount + 1) and drop (abandoned, which is
 * not done). Any move may follow any other: a done to-do deferred is due again. Another being's
 * to-do answers exactly as a missing one does.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { randomBytes } from "node:crypto"
import { nowIso, nowMillis } from "../../kernel/time.ts"
import { TodoNotFound } from "./contract/errors.ts"
import type { CreateTodo, PatchTodo, Todo, TodoStatus } from "./contract/todos.ts"
import { TodosRepository } from "./todos-repository.ts"
import { fnNamed, spanNamed } from "../../kernel/spans.ts"

export const DEFAULT_DEFER_MS = 24 * 3_600_000

const notFound = new TodoNotFound({ message: "You have no to-do with that id." })

export const newId = () => randomBytes(12).toString("base64url")

const iso = (value: string) => new Date(value).toISOString()

export interface TodoQuery {
  readonly status?: ReadonlyArray<TodoStatus> | undefined
  readonly projectId?: string | undefined
  readonly limit: number
  readonly offset: number
}

export class Todos extends Effect.Service<Todos>()("time/Todos", {
  effect: Effect.gen(function* () {
    const todos = yield* TodosRepository

    const get = fnNamed("todos.get")(function* (beingId: string, id: string) {
      const found = yield* todos.find({ beingId, id })
      return yield* Option.match(found, { onNone: () => Effect.fail(notFound), onSome: Effect.succeed })
    })

    /** Reads the being's to-do, changes it, writes it back. */
    const change = (beingId: string, id: string, edit: (todo: Todo, now: string, nowMs: number) => Todo) =>
      Effect.gen(function* () {
        const todo = yield* get(beingId, id)
        const nowMs = yield* nowMillis
        const changed = edit(todo, new Date(nowMs).toISOString(), nowMs)
        const written = yield* todos.update({ ...changed, updatedAt: new Date(nowMs).toISOString() })
        return yield* Option.match(written, { onNone: () => Effect.fail(notFound), onSome: Effect.succeed })
      })

    const create = fnNamed("todos.create")(function* (beingId: string, input: CreateTodo) {
      const now = yield* nowIso
      const todo: Todo = {
        id: newId(),
        beingId,
        title: input.title,
        notes: input.notes ?? "",
        status: "open",
        priority: input.priority ?? "normal",
        dueAt: input.dueAt == null ? null : iso(input.dueAt),
        completedAt: null,
        projectId: input.projectId ?? null,
        memoryId: input.memoryId ?? null,
        deferredCount: 0,
        createdAt: now,
        updatedAt: now
      }
      yield* todos.insert(todo)
      return todo
    })

    const list = fnNamed("todos.list")(function* (beingId: string, query: TodoQuery) {
      return yield* todos.list({
        beingId,
        statuses: query.status === undefined ? null : [...new Set(query.status)],
        projectId: query.projectId ?? null,
        limit: query.limit,
        offset: query.offset
      })
    })

    const patch = (beingId: string, id: string, input: PatchTodo) =>
      change(beingId, id, (todo) => ({
        ...todo,
        ...(input.title === undefined ? {} : { title: input.title }),
        ...(input.notes === undefined ? {} : { notes: input.notes }),
        ...(input.priority === undefined ? {} : { priority: input.priority }),
        ...(input.dueAt === undefined ? {} : { dueAt: input.dueAt === null ? null : iso(input.dueAt) }),
        ...(input.projectId === undefined ? {} : { projectId: input.projectId }),
        ...(input.memoryId === undefined ? {} : { memoryId: input.memoryId })
      })).pipe(spanNamed("todos.patch"))

    const complete = (beingId: string, id: string) =>
      change(beingId, id, (todo, now) => ({ ...todo, status: "done", completedAt: now })).pipe(
        spanNamed("todos.complete")
      )

    const defer = (beingId: string, id: string, dueAt: string | undefined) =>
      change(beingId, id, (todo, _now, nowMs) => ({
        ...todo,
        status: "deferred",
        completedAt: null,
        dueAt: dueAt === undefined ? new Date(nowMs + DEFAULT_DEFER_MS).toISOString() : iso(dueAt),
        deferredCount: todo.deferredCount + 1
      })).pipe(spanNamed("todos.defer"))

    const drop = (beingId: string, id: string) =>
      change(beingId, id, (todo) => ({ ...todo, status: "dropped", completedAt: null })).pipe(spanNamed("todos.drop"))

    const remove = fnNamed("todos.remove")(function* (beingId: string, id: string) {
      const removed = yield* todos.remove({ beingId, id })
      if (Option.isNone(removed)) return yield* Effect.fail(notFound)
      return { ok: true as const }
    })

    return { create, list, get, patch, complete, defer, drop, remove } as const
  }),
  dependencies: [TodosRepository.Default]
}) {}
