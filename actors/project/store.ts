/**
 * A project's reads and writes as the run and the routes use them, over the repositories (SQL
 * lives there, repositories/*.ts), and the events that say what changed: every change of a
 * project, a task or the trace is published to the project owner's being right after it is
 * written, so a watcher never sees an event for a row it cannot read. The writes that must land
 * together (a plan, a team, a run's outputs, a cancel) each run in one transaction. This file
 * holds the project's own row and publishers and assembles the service; a step's own writes
 * (store-steps.ts), a plan edit (store-plan-edit.ts) and the trace (store-trace.ts) are built
 * beside it over those publishers.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { randomBytes } from "node:crypto"
import { nowIso } from "../../kernel/time.ts"
import { EventBus } from "../../kernel/events.ts"
import type { ModelTier } from "../../extensions/models/contract/records.ts"
import type { GeneratorStep, OutputKind } from "../../extensions/generators/contract/step.ts"
import type { PlannedContract } from "./contract/deliverable.ts"
import type {
  Project,
  ProjectInputs,
  ProjectOutput,
  ProjectStatus,
  ReviewVerdict,
  Task,
  Team,
  TeamMemberView
} from "./contract/records.ts"
import { DueDatesRepository } from "./repositories/due-dates-repository.ts"
import { OutputsRepository } from "./repositories/outputs-repository.ts"
import { ProjectsRepository, type OwnerPage, type ProjectRow } from "./repositories/projects-repository.ts"
import { ReviewsRepository } from "./repositories/reviews-repository.ts"
import { TasksRepository, type TaskRecord } from "./repositories/tasks-repository.ts"
import { TeamsRepository, type Assignment, type StoredMember } from "./repositories/teams-repository.ts"
import { TracesRepository } from "./repositories/traces-repository.ts"
import { makeStorePlanEdit } from "./store-plan-edit.ts"
import { makeStoreSteps } from "./store-steps.ts"
import { makeStoreTrace } from "./store-trace.ts"

export const newId = () => randomBytes(12).toString("base64url")

export const fileUrl = (projectId: string, path: string) =>
  `/api/files/project/${projectId}/${path.split("/").map(encodeURIComponent).join("/")}`

/** The wire record: the run's own columns stay inside. */
export const toTask = ({
  position: _p,
  instruction: _i,
  outputKind: _o,
  contract: _c,
  template: _t,
  outputText: _x,
  earlierText: _e,
  checkpoint: _k,
  addedInstruction: _a,
  ...task
}: TaskRecord): Task => task

/** A task as the plan makes it; the store gives it an id and its row. */
export interface NewTask {
  readonly key: string
  readonly title: string
  readonly description: string
  readonly instruction: string
  readonly role: string
  readonly skills: ReadonlyArray<string>
  readonly tier: ModelTier
  /** Keys of the tasks it waits on. */
  readonly dependsOn: ReadonlyArray<string>
  readonly outputKind: OutputKind
  readonly contract: PlannedContract | null
  readonly template: GeneratorStep | null
}

export interface NewOutput {
  readonly taskId: string | null
  readonly kind: OutputKind
  readonly name: string
  readonly path: string
  readonly size: number
}

/** Statuses of a run that is over: nothing more happens until someone resumes it. */
export const finishedStatuses: ReadonlySet<ProjectStatus> = new Set(["done", "failed", "cancelled"])

export class ProjectStore extends Effect.Service<ProjectStore>()("project/ProjectStore", {
  dependencies: [
    ProjectsRepository.Default,
    TasksRepository.Default,
    TeamsRepository.Default,
    OutputsRepository.Default,
    ReviewsRepository.Default,
    TracesRepository.Default,
    DueDatesRepository.Default
  ],
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const bus = yield* EventBus
    const projects = yield* ProjectsRepository
    const tasksRepository = yield* TasksRepository
    const teams = yield* TeamsRepository
    const outputsRepository = yield* OutputsRepository
    const reviews = yield* ReviewsRepository
    const dueDates = yield* DueDatesRepository

    /** A transaction's storage faults are defects, like every repository operation's. */
    const atomically = <A, E, R>(self: Effect.Effect<A, E, R>) =>
      sql.withTransaction(self).pipe(Effect.catchTag("SqlError", Effect.die))

    const outputsOf = (projectId: string) =>
      Effect.map(outputsRepository.listByProject(projectId), (rows) =>
        rows.map((row): ProjectOutput => ({ ...row, url: fileUrl(projectId, row.path) }))
      )

    const toProject = (
      { planned: _planned, runNumber: _runNumber, ...row }: ProjectRow,
      outputs: ReadonlyArray<ProjectOutput>
    ): Project => ({ ...row, outputs })

    /** The row with the run's own columns (run number, whether the plan is stored). */
    const row = (id: string) => Effect.map(projects.findById(id), Option.getOrNull)

    const project = (id: string) =>
      Effect.flatMap(
        projects.findById(id),
        Option.match({
          onNone: () => Effect.succeed(null),
          onSome: (found) => Effect.map(outputsOf(id), (outputs) => toProject(found, outputs))
        })
      )

    const publishProject = (id: string) =>
      Effect.flatMap(project(id), (current) =>
        current === null
          ? Effect.void
          : bus.publish({ kind: "being", beingId: current.ownerId }, { type: "project.updated", project: current })
      )

    /** The owner's projects (a page of them, or all) with their outputs: two statements, not one more per project. */
    const listByOwner = (request: OwnerPage) =>
      Effect.flatMap(projects.listByOwner(request), (rows) =>
        Effect.map(outputsRepository.listByProjects(rows.map((found) => found.id)), (outputRows) => {
          const outputs = new Map<string, Array<ProjectOutput>>()
          for (const { projectId, ...row } of outputRows) {
            const list = outputs.get(projectId) ?? []
            list.push({ ...row, url: fileUrl(projectId, row.path) })
            outputs.set(projectId, list)
          }
          return rows.map((found) => toProject(found, outputs.get(found.id) ?? []))
        })
      )

    /** The owner's projects whose title or brief holds every word, newest first, at most `limit`. */
    const searchByOwner = (ownerId: string, words: ReadonlyArray<string>, limit: number) =>
      projects.search({ ownerId, words, limit })

    const insertProject = (fields: {
      readonly id: string
      readonly ownerId: string
      readonly generatorId: string | null
      readonly title: string
      readonly brief: string
      readonly inputs: ProjectInputs
    }) =>
      Effect.gen(function* () {
        yield* projects.insert({ ...fields, at: yield* nowIso })
        yield* publishProject(fields.id)
      })

    const setStatus = (id: string, status: ProjectStatus, error: string | null = null) =>
      Effect.gen(function* () {
        yield* projects.setStatus({ id, status, error, at: yield* nowIso })
        yield* publishProject(id)
      })

    // A project's owner never changes, and every trace event and task change is published to it.
    const owners = new Map<string, string>()
    const ownerOf = (projectId: string) =>
      Effect.suspend(() => {
        const known = owners.get(projectId)
        if (known !== undefined) return Effect.succeed(known)
        return Effect.map(
          projects.ownerOf(projectId),
          Option.match({
            onNone: () => null,
            onSome: ({ ownerId }) => {
              owners.set(projectId, ownerId)
              return ownerId
            }
          })
        )
      })

    const task = (id: string) => Effect.map(tasksRepository.findById(id), Option.getOrNull)
    const tasks = tasksRepository.listByProject

    /** To the project's owner, and to the person who holds the step (their queue shows it). */
    const publishTask = (record: TaskRecord) =>
      Effect.flatMap(ownerOf(record.projectId), (ownerId) => {
        const to = [ownerId, record.assigneeBeingId].filter(
          (id, at, all): id is string => id !== null && all.indexOf(id) === at
        )
        return Effect.forEach(
          to,
          (beingId) => bus.publish({ kind: "being", beingId }, { type: "task.updated", task: toTask(record) }),
          { discard: true }
        )
      })

    const publishTasks = (ids: ReadonlyArray<{ readonly id: string }>) =>
      Effect.forEach(
        ids,
        ({ id }) => Effect.flatMap(task(id), (record) => (record === null ? Effect.void : publishTask(record))),
        { discard: true }
      )

    /** Cancels a run that is not over, and its open steps; false when it was already over. */
    const cancel = (id: string) =>
      Effect.gen(function* () {
        const at = yield* nowIso
        const cancelled = yield* atomically(
          Effect.gen(function* () {
            if (Option.isNone(yield* projects.cancel({ id, at }))) return null
            return yield* tasksRepository.cancelOpen(id)
          })
        )
        if (cancelled === null) return false
        yield* Effect.forEach(cancelled, publishTask)
        yield* publishProject(id)
        return true
      })

    /** Moves a finished run back to 'running' under a new run number; null when it is not finished. */
    const reopen = (id: string) =>
      Effect.gen(function* () {
        const reopened = yield* projects.reopen({ id, at: yield* nowIso })
        if (Option.isNone(reopened)) return null
        yield* publishProject(id)
        return reopened.value.runNumber
      })

    const addCost = (id: string, usd: number) => (usd === 0 ? Effect.void : projects.addCost({ id, usd }))

    /** The plan's checkpoint: every task row, and the project marked planned, in one transaction. */
    const savePlan = (projectId: string, planned: ReadonlyArray<NewTask>) =>
      Effect.gen(function* () {
        const ids = new Map(planned.map((item) => [item.key, newId()]))
        const at = yield* nowIso
        yield* atomically(
          Effect.gen(function* () {
            for (const [position, item] of planned.entries()) {
              const dependsOn = item.dependsOn.map((key) => ids.get(key)).filter((id) => id !== undefined)
              yield* tasksRepository.insert({
                kind: "work",
                assigneeAgentId: null,
                assigneeBeingId: null,
                pinned: false,
                ...item,
                id: ids.get(item.key)!,
                projectId,
                position,
                dependsOn
              })
            }
            yield* projects.markPlanned({ id: projectId, at })
          })
        )
        yield* publishProject(projectId)
        const saved = yield* tasks(projectId)
        for (const item of saved) yield* publishTask(item)
        return saved
      })

    /** The team row, the project's team and every task's assignee, in one transaction. */
    const saveTeam = (
      projectId: string,
      leadAgentId: string,
      members: ReadonlyArray<StoredMember>,
      assignments: ReadonlyMap<string, Assignment>
    ) =>
      Effect.gen(function* () {
        const id = newId()
        const createdAt = yield* nowIso
        const assigned = yield* atomically(
          Effect.gen(function* () {
            yield* teams.insert({ id, projectId, leadAgentId, members, createdAt })
            yield* projects.setTeam({ id: projectId, teamId: id })
            return yield* Effect.forEach(assignments, ([taskId, { agentId, beingId }]) =>
              tasksRepository.assign({ id: taskId, agentId, beingId })
            )
          })
        )
        yield* publishProject(projectId)
        yield* Effect.forEach(assigned.flat(), publishTask)
      })

    const team = (projectId: string) =>
      Effect.map(
        teams.findByProject(projectId),
        Option.match({
          onNone: () => null,
          onSome: (found): Team => {
            const members = found.members.map(({ systemPrompt: _, ...view }): TeamMemberView => view)
            return {
              id: found.id,
              projectId,
              leadAgentId: found.leadAgentId,
              memberAgentIds: members.map((member) => member.agentId),
              members,
              createdAt: found.createdAt
            }
          }
        })
      )

    /** The members as the run talks to them (with their prompts) and when they were assembled; null before. */
    const teamMembers = (projectId: string) =>
      Effect.map(
        teams.findByProject(projectId),
        Option.match({
          onNone: () => null,
          onSome: ({ createdAt, members }) => ({ members, createdAt })
        })
      )

    /** The run's outputs, replacing any of an earlier run, in one transaction. */
    const saveOutputs = (projectId: string, outputs: ReadonlyArray<NewOutput>) =>
      Effect.gen(function* () {
        yield* atomically(
          Effect.gen(function* () {
            yield* outputsRepository.removeAll(projectId)
            for (const output of outputs) yield* outputsRepository.insert({ ...output, id: newId(), projectId })
          })
        )
        yield* publishProject(projectId)
      })

    const saveReview = (projectId: string, verdict: ReviewVerdict, notes: string) =>
      Effect.flatMap(nowIso, (createdAt) => reviews.save({ projectId, verdict, notes, createdAt }))

    const review = (projectId: string) => Effect.map(reviews.findByProject(projectId), Option.getOrNull)

    const setDue = (projectId: string, taskId: string | null, dueAt: string | null) =>
      Effect.gen(function* () {
        if (dueAt === null) yield* dueDates.clear({ projectId, taskId })
        else yield* dueDates.set({ projectId, taskId, dueAt })
        yield* publishProject(projectId)
      })

    const steps = yield* makeStoreSteps({ task, publishTask, publishTasks })
    const { editPlan } = yield* makeStorePlanEdit({ atomically, tasks, publishProject, publishTasks })
    const { trace, traceAll, traces } = yield* makeStoreTrace(ownerOf)

    return {
      ...steps,
      row,
      project,
      listByOwner,
      searchByOwner,
      insertProject,
      setStatus,
      cancel,
      reopen,
      addCost,
      tasks,
      task,
      savePlan,
      saveTeam,
      team,
      teamMembers,
      editPlan,
      saveOutputs,
      saveReview,
      review,
      trace,
      traceAll,
      traces,
      setDue
    } as const
  })
}) {}
