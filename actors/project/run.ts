/**
 * A project's run, as a sequence of checkpointed steps: plan -> team -> tasks (bounded
 * concurrency, dependency order) -> outputs -> QA review -> done. Each step first looks for its
 * checkpoint (the stored plan, the team row, a task's final row, the review row) and skips the
 * work when it is there, so a run redelivered after a crash, or resumed after a failure or a
 * cancel, pays again only for the step that was cut off (docs/decisions.md).
 */
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import { CrewSeats, RunnableGenerators } from "./ports.ts"
import type { TaskRecord } from "./repositories/tasks-repository.ts"
import { finishedStatuses, ProjectStore } from "./store.ts"
import { recordOutputs } from "./record-outputs.ts"
import { ProjectAlerts } from "./alerts.ts"
import { note, summaryOf } from "./notes.ts"
import { RunFailure } from "./failure.ts"
import { planFromBrief, planFromGenerator } from "./planning.ts"
import { reviewRun } from "./review.ts"
import { assembleRunTeam } from "./team.ts"
import type { Seat } from "../../extensions/groups/contract/records.ts"
import { type Run, runTasks } from "./run-tasks.ts"
import { spanNamed } from "../../kernel/spans.ts"

export interface RunOptions {
  /** Tasks of one project that run at once. */
  readonly concurrency: number
}

const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`)

const plan = (run: Run, generatorId: string | null) =>
  Effect.gen(function* () {
    const store = yield* ProjectStore
    const context = { ownerId: run.ownerId, projectId: run.projectId }
    const planned =
      generatorId === null
        ? yield* planFromBrief(run.brief, context)
        : planFromGenerator(
            yield* Effect.flatMap(RunnableGenerators, (generators) =>
              generators.find({ beingId: run.ownerId, isOwner: true }, generatorId)
            ).pipe(
              Effect.catchAll(() =>
                Effect.fail(
                  new RunFailure({ message: "The generator this project was started from no longer exists." })
                )
              )
            ),
            run.inputs
          )
    yield* store.addCost(run.projectId, planned.costUsd)
    yield* store.trace(run.projectId, {
      kind: "plan",
      text: `${generatorId === null ? "The planner proposed" : "The generator's steps make"} ${planned.tasks.length} tasks.`,
      data: { tasks: planned.tasks.map(({ dependsOn, key, role, title }) => ({ key, title, role, dependsOn })) }
    })
    for (const repair of planned.repairs) {
      yield* store.trace(run.projectId, { kind: "plan", text: `Plan repaired: ${repair.message}`, data: { repair } })
    }
    const saved = yield* store.savePlan(run.projectId, planned.tasks)
    yield* note(
      run,
      `The plan: ${planned.tasks.length} ${planned.tasks.length === 1 ? "task" : "tasks"}. ` +
        planned.tasks.map((task, index) => `${index + 1}. ${task.title} (${task.role})`).join("; ")
    )
    return saved
  }).pipe(spanNamed("project.plan"))

const team = (run: Run, tasks: ReadonlyArray<TaskRecord>, seats: ReadonlyArray<Seat>) =>
  Effect.gen(function* () {
    const store = yield* ProjectStore
    const assembled = yield* assembleRunTeam(tasks, run.ownerId, run.projectId, seats)
    yield* store.saveTeam(run.projectId, assembled.lead.agentId, assembled.members, assembled.assignments)
    yield* store.trace(run.projectId, {
      kind: "plan",
      text: `Team: ${assembled.members.map((member) => `${member.name} (${member.role}${sourceWords[member.source]})`).join(", ")}.`,
      data: { members: assembled.members.map(({ systemPrompt: _, ...member }) => member) }
    })
    return assembled.members
  }).pipe(spanNamed("project.team"))

const sourceWords = { saved: ", saved agent", persona: "", person: ", a person of the crew" } as const

const outputs = (run: Run) => recordOutputs(run.projectId)

const review = (run: Run, tasks: ReadonlyArray<TaskRecord>) =>
  Effect.gen(function* () {
    const store = yield* ProjectStore
    if ((yield* store.review(run.projectId)) !== null) return
    const verdict = yield* reviewRun(run.brief, tasks, { ownerId: run.ownerId, projectId: run.projectId })
    yield* store.addCost(run.projectId, verdict.costUsd)
    yield* store.saveReview(run.projectId, verdict.verdict, verdict.notes)
    yield* store.trace(run.projectId, {
      kind: "message",
      text: `QA review: ${verdict.verdict}. ${verdict.notes}`,
      data: { verdict: verdict.verdict, notes: verdict.notes }
    })
    yield* note(run, `The review's verdict: ${verdict.verdict}. ${summaryOf(verdict.notes)}`.trim())
  }).pipe(spanNamed("project.review"))

const pipeline = (run: Run, planned: boolean, generatorId: string | null, concurrency: number) =>
  Effect.gen(function* () {
    const store = yield* ProjectStore
    let tasks = planned ? yield* store.tasks(run.projectId) : yield* plan(run, generatorId)
    // A crew bound (or cleared) since the team was assembled gives the steps not done yet to a new team.
    const stored = yield* store.teamMembers(run.projectId)
    const crew = yield* Effect.flatMap(CrewSeats, (crews) => crews.forProject(run.projectId))
    const members =
      stored !== null && (crew === null || crew.changedAt <= stored.createdAt)
        ? stored.members
        : yield* team(run, tasks, crew?.seats ?? [])
    yield* store.setStatus(run.projectId, "running")
    yield* store.resetUnfinished(run.projectId)
    // An edit that landed as the last step ended (no run waiting to wake) is run before the outputs.
    let open = ""
    for (;;) {
      yield* runTasks(run, members, concurrency)
      tasks = yield* store.tasks(run.projectId)
      const waiting = tasks
        .filter((task) => task.status === "pending" || task.status === "ready")
        .map((task) => task.id)
        .join(",")
      if (waiting === "" || waiting === open || tasks.some((task) => task.status === "failed")) break
      open = waiting
    }
    const failed = tasks.filter((task) => task.status === "failed")
    if (failed.length > 0) {
      return yield* new RunFailure({
        message: `${failed.length} of ${tasks.length} tasks failed. "${failed[0].title}": ${failed[0].error ?? "no reason given"}`
      })
    }
    yield* outputs(run)
    yield* store.setStatus(run.projectId, "review")
    yield* review(run, tasks)
    yield* store.setStatus(run.projectId, "done")
    yield* store.trace(run.projectId, { kind: "done", text: "The project is done." })
    yield* note(run, "The project is done.")
  }).pipe(spanNamed("project.pipeline"))

const failRun = (run: Run, message: string) =>
  Effect.gen(function* () {
    const store = yield* ProjectStore
    const alerts = yield* ProjectAlerts
    yield* store.cancelOpenTasks(run.projectId)
    yield* store.setStatus(run.projectId, "failed", message)
    yield* store.trace(run.projectId, { kind: "error", text: message })
    yield* note(run, `The run stopped: ${summaryOf(message)}`)
    yield* alerts.raise({
      ownerId: run.ownerId,
      projectId: run.projectId,
      title: clip(`Project failed: ${run.title}`, 160),
      body: clip(message, 4000)
    })
  }).pipe(spanNamed("project.fail"))

/**
 * Runs (or continues) the project's run; a run that is over is left alone. Never fails: a failure is the project's
 * status.
 */
export const runProject = (projectId: string, options: RunOptions) =>
  Effect.gen(function* () {
    const store = yield* ProjectStore
    const row = yield* store.row(projectId)
    if (row === null || finishedStatuses.has(row.status)) return
    const run: Run = { projectId, ownerId: row.ownerId, title: row.title, brief: row.brief, inputs: row.inputs }
    const outcome = yield* pipeline(run, row.planned, row.generatorId, options.concurrency).pipe(
      Effect.catchAllCause((cause) =>
        Cause.isInterruptedOnly(cause) ? Effect.failCause(cause) : Effect.succeed(cause)
      )
    )
    if (outcome === undefined) return
    const failure = Cause.failureOption(outcome)
    if (failure._tag === "Some") return yield* failRun(run, failure.value.message)
    yield* Effect.logError(`project ${projectId}: the run stopped on a defect`, outcome)
    yield* failRun(run, "The run stopped on an internal error; resume it to try again from its last finished step.")
  }).pipe(spanNamed("project.run"))
