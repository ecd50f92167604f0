/**
 * Start again from any step (docs/decisions.md "Start again from any step"). A replay makes the project's next run:
 * the step asked for (with what the owner adds to it) and every step that depends on it, however far down, wait
 * again; every other finished step is kept as it is, traced `kept`, and costs the run nothing; then the run goes
 * as a resume does (run.ts skips finished steps), through the outputs and a fresh review. A fork does the same in a
 * new project of the caller's: a copy of the plan, the team, the kept steps and the workspace's files, and the
 * original is left exactly as it was. Both only once the project's run is over.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import { cp } from "node:fs/promises"
import { basename } from "node:path"
import { fileRootFor } from "../../kernel/extensions/file-root.ts"
import { Settings } from "../../kernel/settings.ts"
import { nowIso } from "../../kernel/time.ts"
import type { Caller } from "../../extensions/accounts/contract/session.ts"
import { ProjectRunning, StepNotFound } from "./contract/errors.ts"
import type { ReplayBody } from "./contract/runs.ts"
import type { ProjectStatus } from "./contract/records.ts"
import { withDependents } from "./pipeline/schedule.ts"
import { ProjectActor } from "./protocol.ts"
import { notFound } from "./projects.ts"
import { ProjectsRepository } from "./repositories/projects-repository.ts"
import { ReplaysRepository } from "./repositories/replays-repository.ts"
import type { TaskRecord } from "./repositories/tasks-repository.ts"
import { finishedStatuses, newId, ProjectStore } from "./store.ts"
import { spanNamed } from "../../kernel/spans.ts"

/** The step and every step that depends on it, however far down: what a replay from it runs again. */
export const downstreamOf = (tasks: ReadonlyArray<TaskRecord>, fromId: string): ReadonlySet<string> => {
  const known = new Set(tasks.map((task) => task.id))
  // As the run reads the plan (run-tasks.ts): a dependency on a step not in it is no edge.
  const plan = tasks.map((task) => ({ id: task.id, dependsOn: task.dependsOn.filter((id) => known.has(id)) }))
  return withDependents(plan, [fromId])
}

/** The instruction a replay adds, trimmed; null when there is none. */
const addedOf = (body: ReplayBody) => {
  const trimmed = body.instruction?.trim() ?? ""
  return trimmed === "" ? null : trimmed
}

const addedWords = (instruction: string) => `\n\nAdded when run again: ${instruction}`

/** The step's description with the instruction added, in place of one an earlier replay added. */
export const describedWith = (task: TaskRecord, instruction: string) => {
  const earlier = task.addedInstruction === null ? "" : addedWords(task.addedInstruction)
  const base =
    earlier !== "" && task.description.endsWith(earlier) ? task.description.slice(0, -earlier.length) : task.description
  return `${base}${addedWords(instruction)}`
}

/** Build output a workspace need not carry into a fork: a build installs it again. */
const notCopied = new Set(["node_modules"])

export class ProjectReplays extends Effect.Service<ProjectReplays>()("project/ProjectReplays", {
  dependencies: [ProjectStore.Default, ProjectsRepository.Default, ReplaysRepository.Default],
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const store = yield* ProjectStore
    const projects = yield* ProjectsRepository
    const replays = yield* ReplaysRepository
    const settings = yield* Settings
    const actor = yield* ProjectActor.client

    const atomically = <A, E, R>(self: Effect.Effect<A, E, R>) =>
      sql.withTransaction(self).pipe(Effect.catchTag("SqlError", Effect.die))

    const running = (status: ProjectStatus) =>
      new ProjectRunning({
        message: `The project's run is not over (it is ${status}); wait for it to end, or cancel it, and try again.`,
        details: { status }
      })

    /** The caller's project whose run is over, its steps, and the step to start again from; else a refusal. */
    const replayable = (caller: Caller, id: string, fromTaskId: string) =>
      Effect.gen(function* () {
        const project = yield* store.project(id)
        if (project === null || project.ownerId !== caller.beingId) return yield* notFound(id)
        const tasks = yield* store.tasks(id)
        const from = tasks.find((task) => task.id === fromTaskId)
        if (from === undefined) {
          return yield* new StepNotFound({
            message: "The project has no step with that id.",
            details: { taskId: fromTaskId }
          })
        }
        if (!finishedStatuses.has(project.status)) return yield* running(project.status)
        const again = downstreamOf(tasks, from.id)
        const kept = tasks.filter((task) => !again.has(task.id) && task.status === "done")
        return { project, tasks, from, again, kept }
      })

    const traceKept = (projectId: string, kept: ReadonlyArray<TaskRecord>, source: string) =>
      Effect.forEach(
        kept,
        (task) =>
          store.trace(projectId, {
            taskId: task.id,
            agentId: task.assigneeAgentId,
            kind: "kept",
            text: `"${task.title}" is kept from ${source}: no model call, no skill call.`
          }),
        { discard: true }
      )

    /**
     * Each revision run again starts from the text it first revised, not from its own last version: its file is put
     * back (the first such step's in plan order, when two revise one file).
     */
    const restoreRevised = (ownerId: string, projectId: string, again: ReadonlyArray<TaskRecord>) =>
      Effect.promise(async () => {
        const root = fileRootFor(settings, ownerId, projectId)
        const restored = new Set<string>()
        for (const task of again) {
          const path = task.contract?.revises
          if (path === undefined || task.earlierText === null || restored.has(path)) continue
          restored.add(path)
          // The run is already reopened: a file that cannot be put back leaves the step to revise what is there.
          await root.write(path, new TextEncoder().encode(task.earlierText)).catch(() => undefined)
        }
      })

    const startRun = (projectId: string, runNumber: number) =>
      actor(projectId).Run({ projectId, runNumber }, { discard: true }).pipe(Effect.orDie)

    const replay = (caller: Caller, id: string, body: ReplayBody) =>
      Effect.gen(function* () {
        const { again, from, kept, project, tasks } = yield* replayable(caller, id, body.fromTaskId)
        const instruction = addedOf(body)
        const at = yield* nowIso
        const opened = yield* atomically(
          Effect.gen(function* () {
            const reopened = yield* projects.reopenRun({ id, at, kind: "replay", fromTaskId: from.id, instruction })
            if (reopened._tag === "None") return null
            const run = reopened.value.runNumber
            yield* replays.rerun([...again])
            yield* replays.keep({ ids: kept.map((task) => task.id), run })
            if (instruction !== null)
              yield* replays.addInstruction({ id: from.id, description: describedWith(from, instruction), instruction })
            yield* replays.forgetReview(id)
            return run
          })
        )
        // Another replay or a resume took the run first.
        if (opened === null) return yield* running((yield* store.project(id))?.status ?? project.status)
        yield* restoreRevised(
          project.ownerId,
          id,
          tasks.filter((task) => again.has(task.id))
        )
        for (const task of [...again, ...kept.map((found) => found.id)]) yield* store.updateTask(task, {})
        yield* store.setStatus(id, "running")
        yield* store.trace(id, {
          taskId: from.id,
          kind: "plan",
          text:
            `Run ${opened}: again from "${from.title}"${instruction === null ? "" : `, adding: ${instruction}`}. ` +
            `${kept.length} finished ${kept.length === 1 ? "step is" : "steps are"} kept, ${again.size} run again.`,
          data: { run: opened, fromTaskId: from.id, instruction, kept: kept.map((task) => task.id), again: [...again] }
        })
        yield* traceKept(id, kept, "an earlier run")
        yield* startRun(id, opened)
        return (yield* store.project(id))!
      }).pipe(spanNamed("project.replay"))

    /** A copy of the workspace's files (all of them, as a replay's run finds its own); none when there is none. */
    const copyFiles = (ownerId: string, from: string, to: string) =>
      Effect.promise(() =>
        cp(fileRootFor(settings, ownerId, from).dir, fileRootFor(settings, ownerId, to).dir, {
          recursive: true,
          filter: (source) => !notCopied.has(basename(source))
        }).catch((error: NodeJS.ErrnoException) => {
          if (error.code !== "ENOENT") throw error
        })
      )

    const fork = (caller: Caller, id: string, body: ReplayBody) =>
      Effect.gen(function* () {
        const { again, from, kept, project, tasks } = yield* replayable(caller, id, body.fromTaskId)
        const instruction = addedOf(body)
        const forkId = newId()
        const teamId = project.teamId === null ? null : newId()
        const ids = new Map(tasks.map((task) => [task.id, newId()]))
        const keptIds = new Set(kept.map((task) => task.id))
        const at = yield* nowIso
        yield* copyFiles(project.ownerId, id, forkId)
        yield* restoreRevised(
          project.ownerId,
          forkId,
          tasks.filter((task) => again.has(task.id))
        )
        const copies = tasks.map((task): TaskRecord => {
          const copy = {
            ...task,
            id: ids.get(task.id)!,
            projectId: forkId,
            parentId: task.parentId === null ? null : (ids.get(task.parentId) ?? null),
            dependsOn: task.dependsOn.flatMap((dependency) => ids.get(dependency) ?? []),
            // Nothing was spent on the fork for what it kept.
            costUsd: 0,
            dueAt: null
          }
          if (keptIds.has(task.id)) return { ...copy, keptInRun: 1 }
          const added =
            instruction !== null && task.id === from.id
              ? { description: describedWith(task, instruction), addedInstruction: instruction }
              : {}
          return {
            ...copy,
            ...added,
            status: "pending",
            output: null,
            outputText: null,
            earlierText: null,
            error: null,
            startedAt: null,
            finishedAt: null,
            keptInRun: null
          }
        })
        const title = `${project.title} (fork)`
        yield* atomically(
          Effect.gen(function* () {
            yield* replays.copyProject({ from: id, id: forkId, title, teamId, at })
            if (teamId !== null) yield* replays.copyTeam({ from: id, projectId: forkId, teamId })
            for (const copy of copies) yield* replays.insertTask(copy)
            yield* replays.insertRun({
              projectId: forkId,
              number: 1,
              kind: "fork",
              status: "running",
              costUsd: 0,
              fromTaskId: ids.get(from.id)!,
              instruction,
              forkedFrom: id,
              startedAt: at,
              finishedAt: null
            })
          })
        )
        yield* store.saveOutputs(
          forkId,
          project.outputs.map(({ kind, name, path, size }) => ({ taskId: null, kind, name, path, size }))
        )
        yield* store.trace(forkId, {
          taskId: ids.get(from.id)!,
          kind: "plan",
          text:
            `Forked from "${project.title}" at "${from.title}"${instruction === null ? "" : `, adding: ${instruction}`}. ` +
            `${kept.length} finished ${kept.length === 1 ? "step is" : "steps are"} kept, ${again.size} run again.`,
          data: { forkedFrom: id, fromTaskId: ids.get(from.id)!, instruction }
        })
        yield* traceKept(
          forkId,
          copies.filter((copy) => copy.keptInRun !== null),
          `"${project.title}"`
        )
        yield* startRun(forkId, 1)
        return (yield* store.project(forkId))!
      }).pipe(spanNamed("project.fork"))

    /** The caller's project's runs, first first, each with what it spent. */
    const runs = (caller: Caller, id: string) =>
      Effect.gen(function* () {
        const project = yield* store.project(id)
        if (project === null || project.ownerId !== caller.beingId) return yield* notFound(id)
        return yield* replays.runs(id)
      }).pipe(spanNamed("project.runs"))

    return { replay, fork, runs } as const
  })
}) {}
