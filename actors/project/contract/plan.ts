/**
 * The plan a planner produces (or a generator's rendered steps become), and the repair pass every
 * plan goes through before any task runs. Repairing rather than refusing: a model's plan is
 * usually right in substance and wrong in a detail, and a run that already spent its planner
 * call should not fail on a dangling id. Every change is reported, so the trace shows it.
 */
import * as Schema from "effect/Schema"
import { ModelTier } from "../../../extensions/models/contract/records.ts"
import { DeliverableContract } from "./deliverable.ts"

export const PlanTask = Schema.Struct({
  id: Schema.String.pipe(Schema.minLength(1)),
  title: Schema.String,
  description: Schema.optionalWith(Schema.String, { default: () => "" }),
  role: Schema.String,
  skills: Schema.optionalWith(Schema.Array(Schema.String), { default: () => [] }),
  tier: Schema.optionalWith(ModelTier, { default: () => "cheap" as const }),
  dependsOn: Schema.optionalWith(Schema.Array(Schema.String), { default: () => [] }),
  deliverable: Schema.optionalWith(DeliverableContract, { exact: true })
})
export type PlanTask = typeof PlanTask.Type

export const Plan = Schema.Struct({
  tasks: Schema.Array(PlanTask).pipe(Schema.minItems(1))
})
export type Plan = typeof Plan.Type

export const PlanRepairKind = Schema.Literal(
  "duplicate-id",
  "tier",
  "duplicate-dependency",
  "unknown-dependency",
  "cycle",
  "research",
  "unknown-skill"
)
export type PlanRepairKind = typeof PlanRepairKind.Type

export const PlanRepair = Schema.Struct({
  kind: PlanRepairKind,
  /** The task changed (for 'research', the task added). */
  taskId: Schema.String,
  message: Schema.String
})
export type PlanRepair = typeof PlanRepair.Type

const researchSkills: ReadonlySet<string> = new Set(["web.search", "web.research"])

const doesResearch = (task: PlanTask) =>
  task.role.trim().toLowerCase() === "researcher" || task.skills.some((skill) => researchSkills.has(skill))

const unusedId = (wanted: string, taken: ReadonlySet<string>) => {
  if (!taken.has(wanted)) return wanted
  let n = 2
  while (taken.has(`${wanted}-${n}`)) n++
  return `${wanted}-${n}`
}

const quote = (id: string) => JSON.stringify(id)

/** A later task reusing an id gets a fresh one; dependencies on that id mean the first task. */
const renameDuplicates = (tasks: ReadonlyArray<PlanTask>, repairs: Array<PlanRepair>): ReadonlyArray<PlanTask> => {
  const taken = new Set(tasks.map((task) => task.id))
  const seen = new Set<string>()
  return tasks.map((task) => {
    if (!seen.has(task.id)) {
      seen.add(task.id)
      return task
    }
    const id = unusedId(task.id, taken)
    taken.add(id)
    repairs.push({
      kind: "duplicate-id",
      taskId: id,
      message: `Two tasks had the id ${quote(task.id)}; the later one is now ${quote(id)}.`
    })
    return { ...task, id }
  })
}

/** 'strong' is reserved for the planner and the QA reviewer. */
const lowerStrongTiers = (tasks: ReadonlyArray<PlanTask>, repairs: Array<PlanRepair>): ReadonlyArray<PlanTask> =>
  tasks.map((task) => {
    if (task.tier !== "strong") return task
    repairs.push({
      kind: "tier",
      taskId: task.id,
      message: `${quote(task.id)} asked for the strong tier, which is reserved for the planner and the QA review; it runs on standard.`
    })
    return { ...task, tier: "standard" }
  })

const cleanDependencies = (tasks: ReadonlyArray<PlanTask>, repairs: Array<PlanRepair>): ReadonlyArray<PlanTask> => {
  const ids = new Set(tasks.map((task) => task.id))
  return tasks.map((task) => {
    const kept: Array<string> = []
    for (const dependency of task.dependsOn) {
      if (kept.includes(dependency)) {
        repairs.push({
          kind: "duplicate-dependency",
          taskId: task.id,
          message: `${quote(task.id)} listed ${quote(dependency)} twice among its dependencies.`
        })
      } else if (!ids.has(dependency)) {
        repairs.push({
          kind: "unknown-dependency",
          taskId: task.id,
          message: `${quote(task.id)} depended on ${quote(dependency)}, which is no task; that dependency was dropped.`
        })
      } else {
        kept.push(dependency)
      }
    }
    return kept.length === task.dependsOn.length ? task : { ...task, dependsOn: kept }
  })
}

/**
 * Depth-first from each task in plan order, following dependencies in their listed order; an edge
 * back to a task still on the path closes a cycle and is dropped. Removing every such back edge
 * leaves a DAG, and the same plan always loses the same edges.
 */
const breakCycles = (tasks: ReadonlyArray<PlanTask>, repairs: Array<PlanRepair>): ReadonlyArray<PlanTask> => {
  const kept = new Map(tasks.map((task) => [task.id, [...task.dependsOn]]))
  const state = new Map<string, "open" | "closed">()
  const visit = (id: string): void => {
    state.set(id, "open")
    const dependencies = kept.get(id) ?? []
    for (const dependency of [...dependencies]) {
      const seen = state.get(dependency)
      if (seen === "open") {
        dependencies.splice(dependencies.indexOf(dependency), 1)
        repairs.push({
          kind: "cycle",
          taskId: id,
          message: `${quote(id)} depending on ${quote(dependency)} closed a cycle; that dependency was dropped.`
        })
      } else if (seen === undefined) {
        visit(dependency)
      }
    }
    state.set(id, "closed")
  }
  for (const task of tasks) if (!state.has(task.id)) visit(task.id)
  return tasks.map((task) => {
    const dependsOn = kept.get(task.id) ?? task.dependsOn
    return dependsOn.length === task.dependsOn.length ? task : { ...task, dependsOn }
  })
}

const researchDeliverable = Schema.decodeSync(DeliverableContract)({ file: "research.md" })

/**
 * Without a research task (role 'researcher', or a task using web.search or web.research), one is
 * added first and every task that waited on nothing now waits on it: so all work follows it,
 * with no redundant edges.
 */
const ensureResearch = (tasks: ReadonlyArray<PlanTask>, repairs: Array<PlanRepair>): ReadonlyArray<PlanTask> => {
  if (tasks.some(doesResearch)) return tasks
  const id = unusedId("research", new Set(tasks.map((task) => task.id)))
  const research: PlanTask = {
    id,
    title: "Research the brief",
    description:
      "Find what the brief needs before anyone writes: facts, figures, examples and who says so. " +
      "Search with web.search and web.research, read the best sources with web.fetch, and save your findings " +
      "with files.write as research.md, each finding followed by the full link to its source.",
    role: "researcher",
    skills: ["web.search", "web.research", "web.fetch", "files.write"],
    tier: "cheap",
    dependsOn: [],
    deliverable: researchDeliverable
  }
  const roots = tasks.filter((task) => task.dependsOn.length === 0).map((task) => task.id)
  repairs.push({
    kind: "research",
    taskId: id,
    message: `The plan had no research task; ${quote(id)} was added first, and ${roots.map(quote).join(", ")} now wait for it.`
  })
  return [research, ...tasks.map((task) => (task.dependsOn.length === 0 ? { ...task, dependsOn: [id] } : task))]
}

/**
 * A planner may name skills the node does not have: they are dropped (and said) before the run,
 * so an agent is never handed a tool that cannot exist.
 */
export const keepKnownSkills = (
  plan: Plan,
  known: ReadonlySet<string>
): { readonly plan: Plan; readonly repairs: ReadonlyArray<PlanRepair> } => {
  const repairs: Array<PlanRepair> = []
  const tasks = plan.tasks.map((task) => {
    const unknown = task.skills.filter((skill) => !known.has(skill))
    if (unknown.length === 0) return task
    repairs.push({
      kind: "unknown-skill",
      taskId: task.id,
      message: `Task "${task.id}" named skills this node does not have, dropped: ${unknown.join(", ")}.`
    })
    return { ...task, skills: task.skills.filter((skill) => known.has(skill)) }
  })
  return { plan: { ...plan, tasks }, repairs }
}

/** The plan made runnable: unique ids, no 'strong' task, only known dependencies, no cycle, research first. */
export const repairPlan = (plan: Plan): { readonly plan: Plan; readonly repairs: ReadonlyArray<PlanRepair> } => {
  const repairs: Array<PlanRepair> = []
  const steps = [renameDuplicates, lowerStrongTiers, cleanDependencies, breakCycles, ensureResearch]
  const tasks = steps.reduce((current, step) => step(current, repairs), plan.tasks)
  return { plan: { ...plan, tasks }, repairs }
}
