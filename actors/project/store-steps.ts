/**
 * The store's writes of one step after the plan is saved, and the queue's reads: the run's updates
 * and claims, a person's hand-in and a gate's decision, the resets of a resumed or cancelled run.
 * Apart from store.ts because none of it touches the project's row: each is a tasks statement, then
 * the changed steps published through the store's own publisher (store.ts), to whom they concern.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { nowIso } from "../../kernel/time.ts"
import type { DeliverableReport } from "./contract/deliverable.ts"
import type { TaskStatus } from "./contract/records.ts"
import type { TaskCheckpoint } from "./contract/task-checkpoint.ts"
import { TasksRepository, type TaskRecord } from "./repositories/tasks-repository.ts"

export interface TaskChange {
  readonly status?: TaskStatus
  readonly assigneeAgentId?: string | null
  readonly assigneeBeingId?: string | null
  readonly output?: DeliverableReport | null
  readonly outputText?: string | null
  readonly earlierText?: string | null
  readonly decisionSignalId?: string | null
  readonly checkpoint?: TaskCheckpoint | null
  readonly error?: string | null
  readonly costUsd?: number
  readonly startedAt?: string | null
  readonly finishedAt?: string | null
}

/** The store's reads and publishers of a step (store.ts), which every write here ends with. */
export interface StepPublishing {
  readonly task: (id: string) => Effect.Effect<TaskRecord | null>
  readonly publishTask: (record: TaskRecord) => Effect.Effect<void>
  readonly publishTasks: (ids: ReadonlyArray<{ readonly id: string }>) => Effect.Effect<void>
}

export const makeStoreSteps = ({ task, publishTask, publishTasks }: StepPublishing) =>
  Effect.gen(function* () {
    const tasksRepository = yield* TasksRepository

    /**
     * The change written over the row as the caller holds it (the run, which claimed the step and alone writes it
     * until it ends): one statement, the row as written published. Null when the row is gone.
     */
    const updateKnown = (current: TaskRecord, change: TaskChange) =>
      Effect.gen(function* () {
        const written = Option.getOrNull(yield* tasksRepository.update({ ...current, ...change }))
        if (written !== null) yield* publishTask(written)
        return written
      })

    /** The change written over the row as it stands now. */
    const updateTask = (id: string, change: TaskChange) =>
      Effect.flatMap(task(id), (current) => (current === null ? Effect.succeed(null) : updateKnown(current, change)))

    const publishRows = (rows: ReadonlyArray<TaskRecord>) => Effect.forEach(rows, publishTask, { discard: true })

    /** A resumed run starts every unfinished task again; open pages hear of each reset. */
    const resetUnfinished = (projectId: string) =>
      Effect.flatMap(tasksRepository.resetUnfinished(projectId), publishRows)

    const cancelOpenTasks = (projectId: string) => Effect.flatMap(tasksRepository.cancelOpen(projectId), publishRows)

    /** A person hands in their step; false when it is not theirs or the run is not waiting on it. */
    const finishPersonStep = (id: string, beingId: string, outputText: string) =>
      Effect.gen(function* () {
        const finished = yield* tasksRepository.finishByPerson({ id, beingId, outputText, at: yield* nowIso })
        yield* publishTasks(finished)
        return finished.length > 0
      })

    /**
     * The run takes a waiting step with who does it, as it read it at the plan's version `planVersion`: the row as
     * claimed, or null when an edit removed or changed the plan since (or the step was taken).
     */
    const claimTask = (id: string, agentId: string | null, beingId: string | null, planVersion: number) =>
      Effect.gen(function* () {
        const claimed = yield* tasksRepository.claim({ id, agentId, beingId, planVersion, at: yield* nowIso })
        if (Option.isNone(claimed)) return null
        yield* publishTask(claimed.value)
        return claimed.value
      })

    /** A gate's person approves or rejects it; false when it is not theirs or the run is not waiting on it. */
    const settleApproval = (id: string, beingId: string, approved: boolean, note: string) =>
      Effect.gen(function* () {
        const settled = yield* tasksRepository.settleApproval({ id, beingId, approved, note, at: yield* nowIso })
        yield* publishTasks(settled)
        return settled.length > 0
      })

    /** Open steps of the being's projects and the steps they hold in others' projects, with their project's title. */
    const openTasksOf = (beingId: string) =>
      Effect.map(
        Effect.zip(tasksRepository.openOfOwner(beingId), tasksRepository.openOfPerson(beingId)),
        ([owned, held]) => {
          const seen = new Set(owned.map((row) => row.id))
          return [...owned, ...held.filter((row) => !seen.has(row.id))].map(({ projectTitle, ...found }) => ({
            projectTitle,
            task: found
          }))
        }
      )

    /** Steps done and in all of each of the given projects. */
    const taskCounts = (projectIds: ReadonlyArray<string>) =>
      Effect.map(
        tasksRepository.countsOfProjects(projectIds),
        (rows) => new Map(rows.map((found) => [found.projectId, { done: found.done, total: found.total }]))
      )

    /** The plan as the run schedules it: its steps in order and the plan's version they are of. */
    const plan = (projectId: string) =>
      Effect.map(tasksRepository.planOf(projectId), (rows) => ({
        version: rows[0]?.planVersion ?? -1,
        tasks: rows.map(({ planVersion: _, ...row }): TaskRecord => row)
      }))

    return {
      plan,
      updateKnown,
      updateTask,
      resetUnfinished,
      cancelOpenTasks,
      finishPersonStep,
      claimTask,
      settleApproval,
      openTasksOf,
      taskCounts
    } as const
  })
