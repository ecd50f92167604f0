/**
 * A run's tasks step (run.ts): every task not yet done, in dependency order, at most `concurrency`
 * at once, each by its member (an agent's loop, task-loop.ts, or a person's step), over the plan
 * the run holds. Apart from run.ts because the steps before and after it (plan, team, outputs,
 * review) read the store once each, where this one goes on as long as the plan has steps.
 */
import * as Effect from "effect/Effect"
import type * as Exit from "effect/Exit"
import * as Queue from "effect/Queue"
import * as Deferred from "effect/Deferred"
import { Settings } from "../../kernel/settings.ts"
import { nowIso } from "../../kernel/time.ts"
import { spanNamed } from "../../kernel/spans.ts"
import { CrewSeats, SavedAgents } from "./ports.ts"
import { PersonSteps } from "./person-steps.ts"
import { RunWakeups } from "./run-wakeups.ts"
import { blockDependents, nextReady } from "./pipeline/schedule.ts"
import type { TaskStatus } from "./contract/records.ts"
import { ProjectStore } from "./store.ts"
import type { TaskRecord } from "./repositories/tasks-repository.ts"
import type { StoredMember } from "./repositories/teams-repository.ts"
import { note, summaryOf } from "./notes.ts"
import type { RunFailure } from "./failure.ts"
import { memberFor, runMember } from "./team.ts"
import { assembleTeam } from "./team-assembly.ts"
import { readEarlier, runTask } from "./task-loop.ts"

const inPersonStepSpan = spanNamed("project.personStep")
const inTaskSpan = spanNamed("project.task")
const inTasksSpan = spanNamed("project.tasks")

/** The run as its steps know it: the project's row when the run began. */
export interface Run {
  readonly projectId: string
  readonly ownerId: string
  readonly title: string
  readonly brief: string
  readonly inputs: Readonly<Record<string, unknown>>
}

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
const personStep = (run: Run, member: StoredMember, task: TaskRecord, planVersion: number) =>
  Effect.gen(function* () {
    const store = yield* ProjectStore
    const steps = yield* PersonSteps
    const { id, title } = task
    const waiting = yield* steps.expect(id)
    if ((yield* store.claimTask(id, member.agentId, member.agentId, planVersion)) === null) return null
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
    return done
  }).pipe(Effect.ensuring(Effect.flatMap(PersonSteps, (steps) => steps.forget(task.id))), inPersonStepSpan)

/**
 * One task from start to its checkpoint, as the run read it from the plan (`plan`, at its version): the final row is
 * one write, and the row as it ended is the answer. Null when an edit removed or changed it first.
 */
const startTask = (run: Run, members: ReadonlyArray<StoredMember>, plan: Plan, id: string) =>
  Effect.gen(function* () {
    const store = yield* ProjectStore
    const settings = yield* Settings
    const planned = plan.byId.get(id)
    if (planned === undefined) return null
    const member = yield* memberOf(run, members, planned)
    if (member.source === "person") return yield* personStep(run, member, planned, plan.version)
    const task = yield* store.claimTask(id, member.agentId, null, plan.version)
    if (task === null) return null
    // The dependencies ended before the step could start: the run's plan holds their final rows.
    const dependencies = (yield* Effect.forEach(task.dependsOn, (dependency) =>
      Effect.suspend(() => {
        const known = plan.byId.get(dependency)
        return known === undefined ? store.task(dependency) : Effect.succeed(known)
      })
    )).filter((found) => found !== null)
    const revises = task.contract?.revises
    const earlierText =
      task.earlierText ??
      (revises === undefined ? null : yield* readEarlier(settings, run.ownerId, run.projectId, revises))
    const started = earlierText === task.earlierText ? task : yield* store.updateKnown(task, { earlierText })
    if (started === null) return null
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
    // A decision waited for on the way wrote the row meanwhile: what it wrote, the final change sets again.
    const ended = yield* store.updateKnown(started, {
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
    return ended
  }).pipe(inTaskSpan)

/** A stored status as the schedule reads it: a step not yet taken waits. */
const scheduled = (status: TaskStatus): TaskStatus => (status === "ready" ? "pending" : status)

/** The stored plan as the run holds it: its steps by id, in order, and the plan's version they are of. */
interface Plan {
  readonly version: number
  readonly byId: Map<string, TaskRecord>
}

/**
 * Every task not yet done, in dependency order, at most `concurrency` at once; a failure blocks
 * its dependents. The run holds the stored plan and keeps it as its steps end (each answers its
 * final row); it reads it afresh when a plan edit or a decision wakes it, or a claim finds the
 * plan moved on (a claim names the version it read), so an edit made while the run goes is what
 * it runs next (no restart), and a step never starts as it stood before an edit.
 */
export const runTasks = (run: Run, members: ReadonlyArray<StoredMember>, concurrency: number) =>
  Effect.gen(function* () {
    const store = yield* ProjectStore
    const finished = yield* Queue.unbounded<{
      readonly id: string
      readonly exit: Exit.Exit<TaskRecord | null, RunFailure>
    } | null>()
    const inFlight = new Set<string>()
    // A plan edit wakes the loop (null), so a step it added that can start does not wait for the next to end.
    const wakeups = yield* RunWakeups
    yield* wakeups.register(run.projectId, Effect.asVoid(Queue.offer(finished, null)))
    yield* Effect.addFinalizer(() => wakeups.forget(run.projectId))
    let plan: Plan | null = null
    for (;;) {
      if (plan === null) {
        const read = yield* store.plan(run.projectId)
        plan = { version: read.version, byId: new Map(read.tasks.map((task) => [task.id, task])) }
      }
      const { byId } = plan
      const rows = [...byId.values()]
      const schedule = blockDependents({
        tasks: rows.map((task) => ({
          id: task.id,
          dependsOn: task.dependsOn.filter((dependency) => byId.has(dependency)),
          // A step in flight runs, or waits for a decision (holding no room of the bound).
          status: inFlight.has(task.id) ? (task.status === "waiting" ? "waiting" : "running") : scheduled(task.status)
        }))
      })
      for (const task of schedule.tasks) {
        if (task.status !== "blocked" || byId.get(task.id)?.status === "blocked") continue
        const cause = task.dependsOn
          .map((dependency) => byId.get(dependency))
          .find((found) => found?.status === "failed" || found?.status === "blocked")
        const blocked = yield* store.updateTask(task.id, {
          status: "blocked",
          error: `It waits on "${cause?.title ?? "a step"}", which failed.`
        })
        if (blocked !== null) byId.set(blocked.id, blocked)
      }
      const next = nextReady(schedule, concurrency)
      for (const id of next.start) {
        inFlight.add(id)
        yield* Effect.fork(
          Effect.flatMap(Effect.exit(startTask(run, members, plan, id)), (exit) => Queue.offer(finished, { id, exit }))
        )
      }
      if (inFlight.size === 0) return
      const ended = yield* Queue.take(finished)
      if (ended === null) {
        plan = null
        continue
      }
      inFlight.delete(ended.id)
      // A run that cannot go on (no model, a ceiling) stops here; the forked tasks end with this fiber.
      const row = yield* ended.exit
      if (row === null) plan = null
      else plan.byId.set(row.id, row)
    }
  }).pipe(Effect.scoped, inTasksSpan)
