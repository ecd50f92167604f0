/**
 * A project's run, as a sequence of checkpointed steps: plan -> team -> tasks (bounded
 * concurrency, dependency order) -> outputs -> QA review -> done. Each step first looks for its
 * checkpoint (the stored plan, the team row, a task's final row, the review row) and skips the
 * work when it is there, so a run redelivered after a crash, or resumed after a failure or a
 * cancel, pays again only for the step that was cut off (docs/decisions.md).
 */
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import type * as Exit from "effect/Exit"
import * as Queue from "effect/Queue"
import { Settings } from "../../kernel/settings.ts"
import { nowIso } from "../../kernel/time.ts"
import * as Deferred from "effect/Deferred"
import { CrewSeats, RunnableGenerators, SavedAgents } from "./ports.ts"
import { PersonSteps } from "./person-steps.ts"
import { RunWakeups } from "./run-wakeups.ts"
import { blockDependents, nextReady } from "./pipeline/schedule.ts"
import type { TaskStatus } from "./contract/records.ts"
import { finishedStatuses, ProjectStore } from "./store.ts"
import { recordOutputs } from "./record-outputs.ts"
import type { TaskRecord } from "./repositories/tasks-repository.ts"
import type { StoredMember } from "./repositories/teams-repository.ts"
import { ProjectAlerts } from "./alerts.ts"
import { note, summaryOf } from "./notes.ts"
import { RunFailure } from "./failure.ts"
import { planFromBrief, planFromGenerator } from "./planning.ts"
import { reviewRun } from "./review.ts"
import { assembleRunTeam, memberFor, runMember } from "./team.ts"
import { assembleTeam } from "./team-assembly.ts"
import type { Seat } from "../../extensions/groups/contract/records.ts"
import { readEarlier, runTask, type TaskResult } from "./task-loop.ts"

export interface RunOptions {
  /** Tasks of one project that run at once. */
  readonly concurrency: number
}

const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`)

interface Run {
  readonly projectId: string
  readonly ownerId: string
  readonly title: string
  readonly brief: string
  readonly inputs: Readonly<Record<string, unknown>>
}

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
  }).pipe(Effect.withSpan("project.plan"))

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
  }).pipe(Effect.withSpan("project.team"))

const sourceWords = { saved: ", saved agent", persona: "", person: ", a person of the crew" } as const

/** A person who holds a step: a gate's, or one the owner chose in a plan edit. */
const personMember = (run: Run, beingId: string) =>
  Effect.map(
    Effect.flatMap(CrewSeats, (crews) => crews.forProject(run.projectId)),
    (crew): StoredMember => ({
      agentId: beingId,
      role: "person",
      name:
        beingId === run.ownerId
          ? "The project's owner"
          : (crew?.seats.find((seat) => seat.beingId === beingId)?.name ?? "A person of the crew"),
      avatar: "🧑",
      source: "person",
      skills: [],
      tier: "cheap",
      systemPrompt: ""
    })
  )

/**
 * Who does the step: a gate's person (the owner unless the edit named one), the person or saved
 * agent the owner chose, the team's member for its role, else a member made for the role now (a
 * step an edit added with a role the team lacks).
 */
const memberOf = (run: Run, members: ReadonlyArray<StoredMember>, task: TaskRecord) =>
  Effect.gen(function* () {
    if (task.kind === "approval" || (task.pinned && task.assigneeBeingId !== null))
      return yield* personMember(run, task.assigneeBeingId ?? run.ownerId)
    if (task.pinned && task.assigneeAgentId !== null) {
      const inTeam = members.find((member) => member.agentId === task.assigneeAgentId)
      if (inTeam !== undefined) return inTeam
      const agent = (yield* Effect.flatMap(SavedAgents, (agents) => agents.ownedBy(run.ownerId))).find(
        (saved) => saved.id === task.assigneeAgentId
      )
      if (agent !== undefined) return runMember({ role: task.role, source: "saved", agent })
    }
    const found = memberFor(members, task)
    if (found !== undefined) return found
    const crew = yield* Effect.flatMap(CrewSeats, (crews) => crews.forProject(run.projectId))
    const [made] = yield* assembleTeam(
      [{ role: task.role, skills: task.skills }],
      run.ownerId,
      run.projectId,
      crew?.seats ?? []
    )
    return runMember(made!)
  })

/**
 * A person's step: it runs until they hand it in, or, for a gate, approve or reject it (the
 * queue routes write the row, then the actor releases this wait). The wait is registered before
 * the step shows as running, so an answer cannot slip between them; a cancel interrupts it.
 * Null when an edit removed the step before the run took it.
 */
const personStep = (run: Run, member: StoredMember, task: TaskRecord) =>
  Effect.gen(function* () {
    const store = yield* ProjectStore
    const steps = yield* PersonSteps
    const { id, title } = task
    const waiting = yield* steps.expect(id)
    if (!(yield* store.claimTask(id, member.agentId, member.agentId))) return null
    const gate = task.kind === "approval"
    const waits = gate
      ? `"${title}" waits for ${member.name}'s approval; the run waits with it.`
      : `${member.name} has "${title}" in their queue; the run waits for them.`
    yield* store.trace(run.projectId, { taskId: id, agentId: member.agentId, kind: "message", text: waits })
    yield* note(run, waits)
    yield* Deferred.await(waiting)
    const done = (yield* store.task(id))!
    const ok = done.status === "done"
    const said = gate
      ? ok
        ? `${member.name} approved "${title}".`
        : `${member.name} rejected "${title}": ${done.error ?? "no reason given"}`
      : `${member.name} handed in "${title}".`
    yield* store.trace(run.projectId, {
      taskId: id,
      agentId: member.agentId,
      kind: ok ? "output" : "error",
      text: said
    })
    if (gate) yield* note(run, said)
    return {
      ok,
      report: null,
      outputText: done.outputText,
      error: ok ? null : done.error,
      costUsd: 0
    } satisfies TaskResult
  }).pipe(
    Effect.ensuring(Effect.flatMap(PersonSteps, (steps) => steps.forget(task.id))),
    Effect.withSpan("project.personStep")
  )

/** One task from start to its checkpoint: the final row is one write. Null when an edit removed it first. */
const startTask = (run: Run, members: ReadonlyArray<StoredMember>, id: string) =>
  Effect.gen(function* () {
    const store = yield* ProjectStore
    const settings = yield* Settings
    const task = yield* store.task(id)
    if (task === null) return null
    const member = yield* memberOf(run, members, task)
    if (member.source === "person") return yield* personStep(run, member, task)
    if (!(yield* store.claimTask(id, member.agentId, null))) return null
    const dependencies = (yield* Effect.forEach(task.dependsOn, store.task)).filter((found) => found !== null)
    const revises = task.contract?.revises
    const earlierText =
      task.earlierText ??
      (revises === undefined ? null : yield* readEarlier(settings, run.ownerId, run.projectId, revises))
    const started = (yield* store.updateTask(id, { earlierText }))!
    const result = yield* runTask({
      projectId: run.projectId,
      ownerId: run.ownerId,
      projectTitle: run.title,
      inputs: run.inputs,
      member,
      task: started,
      dependencies
    })
    yield* store.addCost(run.projectId, result.costUsd)
    yield* store.updateTask(id, {
      status: result.ok ? "done" : "failed",
      output: result.report,
      outputText: result.outputText,
      error: result.error,
      costUsd: result.costUsd,
      finishedAt: yield* nowIso,
      decisionSignalId: null,
      checkpoint: null
    })
    const summary = summaryOf(result.ok ? result.outputText : result.error)
    yield* note(
      run,
      `${member.name} (${member.role}) ${result.ok ? "finished" : "failed"} "${task.title}"${summary === "" ? "." : `: ${summary}`}`
    )
    return result
  }).pipe(Effect.withSpan("project.task"))

/** A stored status as the schedule reads it: a step not yet taken waits. */
const scheduled = (status: TaskStatus): TaskStatus => (status === "ready" ? "pending" : status)

/**
 * Every task not yet done, in dependency order, at most `concurrency` at once; a failure blocks
 * its dependents. The stored plan is read afresh after every step, so a plan edit made while the
 * run goes is what it runs next (no restart).
 */
const runTasks = (run: Run, members: ReadonlyArray<StoredMember>, concurrency: number) =>
  Effect.gen(function* () {
    const store = yield* ProjectStore
    const finished = yield* Queue.unbounded<{
      readonly id: string
      readonly exit: Exit.Exit<TaskResult | null, RunFailure>
    } | null>()
    const inFlight = new Set<string>()
    // A plan edit wakes the loop (null), so a step it added that can start does not wait for the next to end.
    const wakeups = yield* RunWakeups
    yield* wakeups.register(run.projectId, Effect.asVoid(Queue.offer(finished, null)))
    yield* Effect.addFinalizer(() => wakeups.forget(run.projectId))
    for (;;) {
      const rows = yield* store.tasks(run.projectId)
      const ids = new Set(rows.map((task) => task.id))
      const schedule = blockDependents({
        tasks: rows.map((task) => ({
          id: task.id,
          dependsOn: task.dependsOn.filter((dependency) => ids.has(dependency)),
          // A step in flight runs, or waits for a decision (holding no room of the bound).
          status: inFlight.has(task.id) ? (task.status === "waiting" ? "waiting" : "running") : scheduled(task.status)
        }))
      })
      const byId = new Map(rows.map((task) => [task.id, task]))
      for (const task of schedule.tasks) {
        if (task.status !== "blocked" || byId.get(task.id)?.status === "blocked") continue
        const cause = task.dependsOn
          .map((dependency) => byId.get(dependency))
          .find((found) => found?.status === "failed" || found?.status === "blocked")
        yield* store.updateTask(task.id, {
          status: "blocked",
          error: `It waits on "${cause?.title ?? "a step"}", which failed.`
        })
      }
      const next = nextReady(schedule, concurrency)
      for (const id of next.start) {
        inFlight.add(id)
        yield* Effect.fork(
          Effect.flatMap(Effect.exit(startTask(run, members, id)), (exit) => Queue.offer(finished, { id, exit }))
        )
      }
      if (inFlight.size === 0) return
      const ended = yield* Queue.take(finished)
      if (ended === null) continue
      inFlight.delete(ended.id)
      // A run that cannot go on (no model, a ceiling) stops here; the forked tasks end with this fiber.
      yield* ended.exit
    }
  }).pipe(Effect.scoped, Effect.withSpan("project.tasks"))

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
  }).pipe(Effect.withSpan("project.review"))

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
    tasks = yield* store.tasks(run.projectId)
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
  }).pipe(Effect.withSpan("project.pipeline"))

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
  }).pipe(Effect.withSpan("project.fail"))

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
  }).pipe(Effect.withSpan("project.run"))
