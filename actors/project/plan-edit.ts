/**
 * A plan edit turned into the rows it writes (docs/decisions.md "Plans and gates"). The owner
 * sends the wanted plan's not-started part; steps already started, done (and failed while the run
 * still goes) are fixed and stay first. The whole plan then goes through the same repair pass as a
 * planner's (keepKnownSkills, repairPlan), so an edit cannot make a plan the run could not run.
 * Pure: the store runs it inside the transaction that writes its result.
 */
import {
  ApprovalNeedsPerson,
  PlanEmpty,
  PlanStepListedTwice,
  PlanStepUnknown,
  PlanTooLong,
  StepAgentUnknown,
  StepAssigneeNotInCrew,
  StepStarted
} from "./contract/errors.ts"
import { keepKnownSkills, repairPlan, type PlanRepair, type PlanTask } from "./contract/plan.ts"
import { maxPlanTasks, type PlanEdit, type ProjectStatus } from "./contract/records.ts"
import { planContract } from "./pipeline/word-target.ts"
import type { EditedTask, NewTaskRow, TaskRecord } from "./repositories/tasks-repository.ts"

/** What an edit may draw on besides the plan: who the caller may give a step to, and the node's skills. */
export interface EditContext {
  readonly ownerId: string
  readonly projectId: string
  readonly projectStatus: ProjectStatus
  readonly agentIds: ReadonlySet<string>
  /** The owner's own being and every person seated in the project's crew. */
  readonly personIds: ReadonlySet<string>
  readonly knownSkills: ReadonlySet<string>
  readonly newId: () => string
}

export interface PlanWrites {
  readonly removed: ReadonlyArray<string>
  readonly rewritten: ReadonlyArray<EditedTask>
  readonly inserted: ReadonlyArray<NewTaskRow>
  readonly placed: ReadonlyArray<{
    readonly id: string
    readonly position: number
    readonly dependsOn: ReadonlyArray<string>
  }>
  readonly repairs: ReadonlyArray<PlanRepair>
}

/**
 * Started, done, or failed while the run still goes: the edit keeps it as it is. A stopped run's
 * failed step (a rejected gate, say) may be edited back to pending: resume would start it again anyway.
 */
export const isFixed = (task: TaskRecord, projectStatus: ProjectStatus) =>
  task.status === "running" ||
  task.status === "waiting" ||
  task.status === "done" ||
  (task.status === "failed" && projectStatus !== "failed" && projectStatus !== "cancelled")

/** Why a plan edit is refused: nothing of it is written. */
export type PlanEditRefusal =
  | StepStarted
  | PlanStepUnknown
  | PlanStepListedTwice
  | PlanEmpty
  | PlanTooLong
  | AssigneeRefusal

type AssigneeRefusal = StepAssigneeNotInCrew | ApprovalNeedsPerson | StepAgentUnknown

interface Assigned {
  readonly assigneeAgentId: string | null
  readonly assigneeBeingId: string | null
  readonly pinned: boolean
}

/** Who does the step; a gate is a person's, the owner's when none is named. */
const assigneeOf = (edit: PlanEdit, context: EditContext): Assigned | AssigneeRefusal => {
  const assignee = edit.assignee ?? null
  const person = (beingId: string): Assigned | AssigneeRefusal =>
    context.personIds.has(beingId)
      ? { assigneeAgentId: beingId, assigneeBeingId: beingId, pinned: true }
      : new StepAssigneeNotInCrew({
          message: "A step can go to you or to a person seated in the project's crew.",
          details: { personBeingId: beingId }
        })
  if (assignee !== null && "personBeingId" in assignee) return person(assignee.personBeingId)
  if (edit.kind === "approval") {
    if (assignee !== null)
      return new ApprovalNeedsPerson({
        message: "An approval waits for a person, not an agent.",
        details: { title: edit.title }
      })
    return person(context.ownerId)
  }
  if (assignee === null) return { assigneeAgentId: null, assigneeBeingId: null, pinned: false }
  return context.agentIds.has(assignee.agentId)
    ? { assigneeAgentId: assignee.agentId, assigneeBeingId: null, pinned: true }
    : new StepAgentUnknown({ message: "That is not one of your saved agents.", details: { agentId: assignee.agentId } })
}

const slug = (title: string) =>
  title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")
    .slice(0, 40) || "step"

const unusedKey = (wanted: string, taken: Set<string>) => {
  let key = wanted
  for (let n = 2; taken.has(key); n++) key = `${wanted}-${n}`
  taken.add(key)
  return key
}

/** The rows an edit writes, or the refusal that leaves everything as it was. */
export const planEdit = (
  current: ReadonlyArray<TaskRecord>,
  edits: ReadonlyArray<PlanEdit>,
  context: EditContext
): PlanWrites | PlanEditRefusal => {
  const byId = new Map(current.map((task) => [task.id, task]))
  const fixed = current.filter((task) => isFixed(task, context.projectStatus))
  const fixedIds = new Set(fixed.map((task) => task.id))
  const listed = new Set<string>()
  for (const edit of edits) {
    if (edit.id === undefined) continue
    if (fixedIds.has(edit.id)) {
      return new StepStarted({
        message: "A step that has started (or is done) cannot be changed or removed.",
        details: { taskId: edit.id }
      })
    }
    if (!byId.has(edit.id))
      return new PlanStepUnknown({ message: "The project has no step with that id.", details: { taskId: edit.id } })
    if (listed.has(edit.id))
      return new PlanStepListedTwice({ message: "A step is listed twice.", details: { taskId: edit.id } })
    listed.add(edit.id)
  }
  const total = fixed.length + edits.length
  if (total === 0) return new PlanEmpty({ message: "A plan needs at least one step.", details: {} })
  if (total > maxPlanTasks)
    return new PlanTooLong({ message: `A plan has at most ${maxPlanTasks} steps.`, details: { steps: total } })

  const assigned = new Map<string, Assigned>()
  const ids = edits.map((edit) => edit.id ?? context.newId())
  for (const [index, edit] of edits.entries()) {
    const who = assigneeOf(edit, context)
    if ("_tag" in who) return who
    assigned.set(ids[index]!, who)
  }

  const asPlanTask = (task: TaskRecord): PlanTask => ({
    id: task.id,
    title: task.title,
    description: task.description,
    role: task.role,
    skills: task.skills,
    tier: task.tier,
    dependsOn: task.dependsOn
  })
  const plan = {
    tasks: [
      ...fixed.map(asPlanTask),
      ...edits.map(
        (edit, index): PlanTask => ({
          id: ids[index]!,
          title: edit.title,
          description: edit.description ?? "",
          role: edit.role,
          skills: edit.skills ?? [],
          tier: byId.get(ids[index]!)?.tier ?? "cheap",
          // "#n" names the list's n-th step (from 0): a new step has no id yet for others to wait on.
          dependsOn: (edit.dependsOn ?? []).map((dependency) =>
            /^#\d+$/.test(dependency) ? (ids[Number(dependency.slice(1))] ?? dependency) : dependency
          )
        })
      )
    ]
  }
  const known = keepKnownSkills(plan, context.knownSkills)
  const repaired = repairPlan(known.plan)
  const repairs = [...known.repairs, ...repaired.repairs]

  // A task the repair pass added (research) gets an id of ours, and what waits on it learns it.
  const ours = new Set([...fixedIds, ...ids])
  const renamed = new Map(
    repaired.plan.tasks.filter((task) => !ours.has(task.id)).map((task) => [task.id, context.newId()])
  )
  const idOf = (id: string) => renamed.get(id) ?? id
  const keys = new Set(current.filter((task) => fixedIds.has(task.id) || listed.has(task.id)).map((task) => task.key))
  const editsById = new Map(edits.map((edit, index) => [ids[index]!, edit]))

  const rewritten: Array<EditedTask> = []
  const inserted: Array<NewTaskRow> = []
  const placed: Array<PlanWrites["placed"][number]> = []
  for (const [position, task] of repaired.plan.tasks.entries()) {
    const id = idOf(task.id)
    const dependsOn = task.dependsOn.map(idOf)
    const existing = byId.get(task.id)
    if (fixedIds.has(task.id)) {
      placed.push({ id, position, dependsOn })
      continue
    }
    const edit = editsById.get(task.id)
    const kind = edit?.kind ?? "work"
    const who = assigned.get(task.id) ?? { assigneeAgentId: null, assigneeBeingId: null, pinned: false }
    const fields = {
      position,
      title: task.title,
      description: task.description,
      role: task.role,
      skills: task.skills,
      dependsOn,
      kind,
      ...who
    }
    if (existing !== undefined) {
      // A generator's step keeps its rendered instruction unless the edit rewrote what it says.
      const same = existing.title === task.title && existing.description === task.description
      rewritten.push({
        ...fields,
        id,
        instruction: same ? existing.instruction : task.description === "" ? task.title : task.description
      })
    } else {
      inserted.push({
        ...fields,
        id,
        projectId: context.projectId,
        key: unusedKey(slug(task.title), keys),
        instruction: task.description === "" ? task.title : task.description,
        tier: task.tier,
        outputKind: "markdown",
        contract: task.deliverable === undefined ? null : planContract(task.deliverable, {}),
        template: null
      })
    }
  }
  const removed = current.filter((task) => !fixedIds.has(task.id) && !listed.has(task.id)).map((task) => task.id)
  return { removed, rewritten, inserted, placed, repairs }
}
