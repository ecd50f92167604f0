/**
 * The store's side of a plan edit: the version checked and the rows written in one transaction,
 * then the project and the changed steps published. Apart from store.ts because the rows come from
 * plan-edit.ts's pure decision, which runs inside the transaction, and nothing else the store does
 * reads and writes the plan in one go.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { nowIso } from "../../kernel/time.ts"
import type { PlanWrites } from "./plan-edit.ts"
import { ProjectsRepository } from "./repositories/projects-repository.ts"
import { TasksRepository, type TaskRecord } from "./repositories/tasks-repository.ts"

/** What the edit uses of the store (store.ts): its transaction, its read of the plan and its publishers. */
export interface PlanEditing {
  readonly atomically: <A, E, R>(self: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  readonly tasks: (projectId: string) => Effect.Effect<ReadonlyArray<TaskRecord>>
  readonly publishProject: (id: string) => Effect.Effect<void>
  readonly publishTasks: (ids: ReadonlyArray<{ readonly id: string }>) => Effect.Effect<void>
}

export const makeStorePlanEdit = ({ atomically, tasks, publishProject, publishTasks }: PlanEditing) =>
  Effect.gen(function* () {
    const projects = yield* ProjectsRepository
    const tasksRepository = yield* TasksRepository

    /**
     * A plan edit, all or nothing: `decide` reads the plan inside the transaction (so the run cannot
     * start a step between the check and the write) and answers the rows to write or a refusal; the
     * version must be the plan's current one. Null when it was not.
     */
    const editPlan = <E>(
      projectId: string,
      version: number,
      decide: (tasks: ReadonlyArray<TaskRecord>) => Effect.Effect<PlanWrites, E>
    ) =>
      Effect.gen(function* () {
        const at = yield* nowIso
        const written = yield* atomically(
          Effect.gen(function* () {
            if (Option.isNone(yield* projects.bumpPlanVersion({ id: projectId, version, at }))) return null
            const writes = yield* decide(yield* tasks(projectId))
            for (const id of writes.removed) yield* tasksRepository.remove({ id, projectId })
            for (const task of writes.placed) yield* tasksRepository.place(task)
            for (const task of writes.rewritten) yield* tasksRepository.rewrite(task)
            for (const task of writes.inserted) yield* tasksRepository.insert(task)
            return writes
          })
        )
        if (written === null) return null
        yield* publishProject(projectId)
        yield* publishTasks([...written.rewritten, ...written.inserted])
        return written
      })

    return { editPlan } as const
  })
