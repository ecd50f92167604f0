/**
 * Projects as the routes see them: start a run (from a brief or a generator and its inputs),
 * read one's own projects, their tasks, team, outputs, review and trace, cancel, resume, set due
 * dates, and the portfolio and queue views (lists.ts). Every read and write names the caller's being, so
 * another being's project is simply not found. The run itself is the project actor's.
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { ProjectActor } from "./protocol.ts"
import {
  NotYourStep,
  PlanChanged,
  PlanNotReady,
  ProjectInputsInvalid,
  ProjectNotFound,
  ProjectNotResumable,
  ProjectNotRunning,
  ProjectOver,
  RunnableGeneratorNotFound,
  StepNotFound,
  StepNotWaiting,
  StepWrongKind
} from "./contract/errors.ts"
import type { Caller } from "../../extensions/accounts/contract/session.ts"
import { CrewSeats, RunnableGenerators, SavedAgents } from "./ports.ts"
import { planEdit } from "./plan-edit.ts"
import {
  ProjectInputs,
  type ApproveBody,
  type EditPlanBody,
  type PlanEditResult,
  type RejectBody,
  type CreateProjectBody,
  type DueBody,
  type FinishStepBody,
  type ProjectDetail
} from "./contract/records.ts"
import { newId, ProjectStore, toTask } from "./store.ts"
import { projectLists } from "./lists.ts"
import { spanNamed } from "../../kernel/spans.ts"

export const notFound = (id: string) =>
  new ProjectNotFound({ message: "You have no project with that id.", details: { id } })

const maxTitleChars = 80

/** A brief's first line, cut at a word near the limit. */
export const titleOf = (brief: string) => {
  const line = brief.trim().split("\n")[0].trim()
  if (line.length <= maxTitleChars) return line
  const cut = line.slice(0, maxTitleChars)
  return `${cut.slice(0, cut.lastIndexOf(" ") > 40 ? cut.lastIndexOf(" ") : maxTitleChars).trimEnd()}…`
}

/**
 * A generator run's title: the generator's name and the first text the person gave it, so two
 * runs of one generator can be told apart in the portfolio and the queue.
 */
export const generatorRunTitle = (name: string, inputs: unknown) => {
  const first =
    typeof inputs === "object" && inputs !== null
      ? Object.values(inputs).find((value): value is string => typeof value === "string" && value.trim() !== "")
      : undefined
  return first === undefined ? name : titleOf(`${name}: ${first}`)
}

/** The inputs as they came in a JSON body and through the form's JSON Schema: JSON, so this cannot fail. */
const asProjectInputs = (inputs: Readonly<Record<string, unknown>>) =>
  Effect.orDie(Schema.decodeUnknown(ProjectInputs)(inputs))

export class Projects extends Effect.Service<Projects>()("project/Projects", {
  dependencies: [ProjectStore.Default],
  effect: Effect.gen(function* () {
    const store = yield* ProjectStore
    const generators = yield* RunnableGenerators
    const agents = yield* SavedAgents
    const crews = yield* CrewSeats
    const actor = yield* ProjectActor.client
    const { list, portfolio, queue } = projectLists(store)

    const owned = (caller: Caller, id: string) =>
      Effect.flatMap(store.project(id), (project) =>
        project === null || project.ownerId !== caller.beingId ? Effect.fail(notFound(id)) : Effect.succeed(project)
      )

    /** The generator the caller may run, with its inputs checked and defaults filled, or a named refusal. */
    const runnableGenerator = (caller: Caller, generatorId: string, inputs: unknown) =>
      Effect.gen(function* () {
        const notRunnable = new RunnableGeneratorNotFound({
          message: "There is no generator with that id you can run.",
          details: { generatorId }
        })
        const generator = yield* generators.find(caller, generatorId).pipe(
          // A private generator of someone else is not to be told apart from a missing one.
          Effect.catchTags({
            GeneratorNotFound: () => Effect.fail(notRunnable),
            GeneratorPrivate: () => Effect.fail(notRunnable)
          })
        )
        yield* generators.check(generator)
        const checked = generators.checkInputs(generator, inputs)
        if (!checked.ok) {
          return yield* new ProjectInputsInvalid({
            message: `The inputs do not fit the generator's form: ${checked.issues.map((issue) => `${issue.path === "" ? "the form" : issue.path} ${issue.message}`).join("; ")}.`,
            details: { issues: checked.issues }
          })
        }
        return { generator, inputs: checked.inputs }
      })

    /** Sends the run; a persisted message, so it is stored before this returns and survives a crash. */
    const startRun = (projectId: string, runNumber: number) =>
      actor(projectId).Run({ projectId, runNumber }, { discard: true }).pipe(Effect.orDie)

    const create = (caller: Caller, body: CreateProjectBody) =>
      Effect.gen(function* () {
        const id = newId()
        if ("brief" in body) {
          yield* store.insertProject({
            id,
            ownerId: caller.beingId,
            generatorId: null,
            title: titleOf(body.brief),
            brief: body.brief,
            inputs: {}
          })
        } else {
          const { generator, inputs } = yield* runnableGenerator(caller, body.generatorId, body.inputs)
          yield* store.insertProject({
            id,
            ownerId: caller.beingId,
            generatorId: generator.id,
            title: generatorRunTitle(generator.name, inputs),
            brief: generator.description,
            inputs: yield* asProjectInputs(inputs)
          })
        }
        yield* startRun(id, 1)
        return (yield* store.project(id))!
      }).pipe(spanNamed("project.create"))

    /** The caller's projects whose title or brief holds every word (lower-cased), newest first, at most `limit`. */
    const search = (caller: Caller, words: ReadonlyArray<string>, limit: number) =>
      store.searchByOwner(caller.beingId, words, limit).pipe(spanNamed("project.search"))

    const get = (caller: Caller, id: string) =>
      Effect.gen(function* () {
        const project = yield* owned(caller, id)
        return {
          project,
          tasks: (yield* store.tasks(id)).map(toTask),
          team: yield* store.team(id),
          review: yield* store.review(id)
        } satisfies ProjectDetail
      }).pipe(spanNamed("project.get"))

    const trace = (caller: Caller, id: string, after: number, limit: number) =>
      Effect.flatMap(owned(caller, id), () => store.traces(id, after, limit)).pipe(spanNamed("project.trace"))

    const cancel = (caller: Caller, id: string) =>
      Effect.gen(function* () {
        const project = yield* owned(caller, id)
        if (!(yield* store.cancel(id))) {
          return yield* new ProjectNotRunning({
            message: `The project is already ${project.status}; there is no run to cancel.`,
            details: { status: project.status }
          })
        }
        // The status already stops a run that is not in this process; this stops the one that is.
        yield* actor(id).Cancel().pipe(Effect.ignore)
        return (yield* store.project(id))!
      }).pipe(spanNamed("project.cancel"))

    const resume = (caller: Caller, id: string) =>
      Effect.gen(function* () {
        const project = yield* owned(caller, id)
        const runNumber = yield* store.reopen(id)
        if (runNumber === null) {
          return yield* new ProjectNotResumable({
            message: `Only a failed or cancelled run can be resumed; this project is ${project.status}.`,
            details: { status: project.status }
          })
        }
        yield* store.trace(id, { kind: "plan", text: `Resumed (run ${runNumber}) from the last finished step.` })
        yield* startRun(id, runNumber)
        return (yield* store.project(id))!
      }).pipe(spanNamed("project.resume"))

    const setDue = (caller: Caller, id: string, body: DueBody) =>
      Effect.gen(function* () {
        yield* owned(caller, id)
        if (body.taskId !== undefined) {
          const task = yield* store.task(body.taskId)
          if (task === null || task.projectId !== id) {
            return yield* new StepNotFound({
              message: "The project has no step with that id.",
              details: { taskId: body.taskId }
            })
          }
        }
        const dueAt = body.dueAt === null ? null : new Date(body.dueAt).toISOString()
        yield* store.setDue(id, body.taskId ?? null, dueAt)
        return (yield* store.project(id))!
      }).pipe(spanNamed("project.setDue"))

    /**
     * The step the caller holds. Anyone else is told there is no such step, but the project's
     * owner, who sees it in their queue, is told whose it is.
     */
    const heldStep = (caller: Caller, taskId: string) =>
      Effect.gen(function* () {
        const task = yield* store.task(taskId)
        const missing = new StepNotFound({
          message: "You hold no step with that id.",
          details: { taskId }
        })
        if (task === null || task.assigneeBeingId === null) return yield* missing
        if (task.assigneeBeingId !== caller.beingId) {
          const project = yield* store.project(task.projectId)
          if (project?.ownerId !== caller.beingId) return yield* missing
          return yield* new NotYourStep({
            message: "This step is held by a person of the crew; only they can answer it.",
            details: { taskId }
          })
        }
        return task
      })

    const notWaiting = (task: { readonly id: string; readonly status: string }) =>
      new StepNotWaiting({
        message:
          task.status === "done" || task.status === "failed"
            ? "This step is already answered."
            : `The run is not waiting on this step yet (it is ${task.status}).`,
        details: { taskId: task.id, status: task.status }
      })

    const kindRefusal = (taskId: string, kind: string) =>
      new StepWrongKind({
        message:
          kind === "approval"
            ? "This step is an approval: approve or reject it."
            : "This step is work to hand in, not an approval.",
        details: { taskId, kind }
      })

    /** The person who holds a step hands it in while the run waits on it; the run goes on. */
    const finishStep = (caller: Caller, taskId: string, body: FinishStepBody) =>
      Effect.gen(function* () {
        const task = yield* heldStep(caller, taskId)
        if (task.kind !== "work") return yield* kindRefusal(taskId, task.kind)
        if (!(yield* store.finishPersonStep(taskId, caller.beingId, body.output))) return yield* notWaiting(task)
        yield* actor(task.projectId).StepFinished({ taskId }).pipe(Effect.ignore)
        return toTask((yield* store.task(taskId))!)
      }).pipe(spanNamed("project.finishStep"))

    /**
     * A gate's person says yes (the step is done, its output the note) or no (it fails with the note, and so the run).
     */
    const answerGate = (caller: Caller, taskId: string, approved: boolean, note: string) =>
      Effect.gen(function* () {
        const task = yield* heldStep(caller, taskId)
        if (task.kind !== "approval") return yield* kindRefusal(taskId, task.kind)
        if (!(yield* store.settleApproval(taskId, caller.beingId, approved, note))) return yield* notWaiting(task)
        yield* actor(task.projectId).StepFinished({ taskId }).pipe(Effect.ignore)
        return toTask((yield* store.task(taskId))!)
      }).pipe(spanNamed(approved ? "project.approveStep" : "project.rejectStep"))

    const approveStep = (caller: Caller, taskId: string, body: ApproveBody) =>
      answerGate(caller, taskId, true, body.note?.trim() || "Approved.")

    const rejectStep = (caller: Caller, taskId: string, body: RejectBody) =>
      answerGate(caller, taskId, false, body.note)

    /**
     * The owner's edit of the plan's not-started part (plan-edit.ts), made on the version they
     * read; the run reads the stored plan before each next step, so it follows without a restart.
     */
    const editPlan = (caller: Caller, id: string, body: EditPlanBody) =>
      Effect.gen(function* () {
        yield* owned(caller, id)
        const agentIds = new Set((yield* agents.ownedBy(caller.beingId)).map((agent) => agent.id))
        const crew = yield* crews.forProject(id)
        const personIds = new Set([caller.beingId, ...(crew?.seats ?? []).map((seat) => seat.beingId)])
        const knownSkills = yield* agents.registeredSkills
        const written = yield* store.editPlan(id, body.version, (tasks) =>
          Effect.gen(function* () {
            const row = (yield* store.row(id))!
            if (row.status === "done" || row.status === "review") {
              return yield* new ProjectOver({
                message: `The project is ${row.status}; its plan can no longer change.`,
                details: { status: row.status }
              })
            }
            if (!row.planned) {
              return yield* new PlanNotReady({
                message: "The project is still being planned; edit it once its plan is there.",
                details: { status: row.status }
              })
            }
            const writes = planEdit(tasks, body.tasks, {
              ownerId: caller.beingId,
              projectId: id,
              projectStatus: row.status,
              agentIds,
              personIds,
              knownSkills,
              newId
            })
            return "removed" in writes ? writes : yield* Effect.fail(writes)
          })
        )
        if (written === null) {
          return yield* new PlanChanged({
            message: "The plan changed since you read it; reload it and edit again.",
            details: { version: body.version }
          })
        }
        const steps = written.placed.length + written.rewritten.length + written.inserted.length
        yield* store.trace(id, {
          kind: "plan",
          text: `Plan edited: ${steps} ${steps === 1 ? "step" : "steps"}, ${written.inserted.length} new, ${written.removed.length} removed.`,
          data: {
            removed: written.removed,
            added: written.inserted.map(({ id: taskId, title }) => ({ id: taskId, title }))
          }
        })
        for (const repair of written.repairs)
          yield* store.trace(id, { kind: "plan", text: `Plan edit repaired: ${repair.message}`, data: { repair } })
        yield* actor(id).PlanEdited().pipe(Effect.ignore)
        return { ...(yield* get(caller, id)), repairs: written.repairs } satisfies PlanEditResult
      }).pipe(spanNamed("project.editPlan"))

    return {
      create,
      list,
      search,
      get,
      trace,
      cancel,
      resume,
      setDue,
      portfolio,
      queue,
      finishStep,
      approveStep,
      rejectStep,
      editPlan
    } as const
  })
}) {}
