/**
 * The task runner's schedule as a pure state machine over plain data (so a run's checkpoint can
 * hold it): which tasks may start under the concurrency bound, and what a finished, failed or
 * cancelled run does to the rest. Ties go to plan order, so a run is reproducible.
 */
import type { TaskStatus } from "../contract/records.ts"

export interface TaskNode {
  readonly id: string
  readonly dependsOn: ReadonlyArray<string>
}

export interface ScheduledTask extends TaskNode {
  readonly status: TaskStatus
}

export interface Schedule {
  readonly tasks: ReadonlyArray<ScheduledTask>
}

/**
 * The tasks in an order where every dependency comes first (plan order among equals). Throws on
 * a duplicate id, an unknown dependency or a cycle: the plan repair pass rules them out, so one
 * reaching here is a defect, not an input to cope with.
 */
export const topologicalOrder = <T extends TaskNode>(tasks: ReadonlyArray<T>): ReadonlyArray<T> => {
  const byId = new Map(tasks.map((task) => [task.id, task]))
  if (byId.size !== tasks.length) throw new Error("schedule: task ids are not unique")
  for (const task of tasks) {
    const unknown = task.dependsOn.find((dependency) => !byId.has(dependency))
    if (unknown !== undefined) throw new Error(`schedule: ${task.id} depends on unknown task ${unknown}`)
  }
  const placed = new Set<string>()
  const order: Array<T> = []
  while (order.length < tasks.length) {
    const next = tasks.find(
      (task) => !placed.has(task.id) && task.dependsOn.every((dependency) => placed.has(dependency))
    )
    if (next === undefined) throw new Error("schedule: the dependencies form a cycle")
    placed.add(next.id)
    order.push(next)
  }
  return order
}

/**
 * The tasks `from` names and every task that waits on one of them, directly or through another, in one walk in
 * dependency order. A task `through` turns down is not reached, and reaches nothing further on its own.
 */
export const withDependents = <T extends TaskNode>(
  tasks: ReadonlyArray<T>,
  from: Iterable<string>,
  through: (task: T) => boolean = () => true
): ReadonlySet<string> => {
  const reached = new Set(from)
  for (const task of topologicalOrder(tasks)) {
    if (!reached.has(task.id) && through(task) && task.dependsOn.some((dependency) => reached.has(dependency)))
      reached.add(task.id)
  }
  return reached
}

const assertBound = (bound: number) => {
  if (!Number.isSafeInteger(bound) || bound < 1)
    throw new Error(`schedule: the concurrency bound must be a positive integer, got ${bound}`)
}

export const startSchedule = (tasks: ReadonlyArray<TaskNode>): Schedule => {
  topologicalOrder(tasks)
  return { tasks: tasks.map((task) => ({ id: task.id, dependsOn: [...task.dependsOn], status: "pending" })) }
}

const withStatus = (schedule: Schedule, statusOf: (task: ScheduledTask) => TaskStatus): Schedule => ({
  tasks: schedule.tasks.map((task) => {
    const status = statusOf(task)
    return status === task.status ? task : { ...task, status }
  })
})

/**
 * Marks every task whose dependencies are all done as ready, and starts as many ready tasks (in
 * plan order) as the bound leaves room for. `start` lists the tasks to run now. A task `waiting` for
 * the owner's decision holds no room: the run's other tasks go on meanwhile.
 */
export const nextReady = (
  schedule: Schedule,
  bound: number
): { readonly schedule: Schedule; readonly start: ReadonlyArray<string> } => {
  assertBound(bound)
  const done = new Set(schedule.tasks.filter((task) => task.status === "done").map((task) => task.id))
  const readied = withStatus(schedule, (task) =>
    task.status === "pending" && task.dependsOn.every((dependency) => done.has(dependency)) ? "ready" : task.status
  )
  const running = readied.tasks.filter((task) => task.status === "running").length
  const start = readied.tasks
    .filter((task) => task.status === "ready")
    .slice(0, Math.max(0, bound - running))
    .map((task) => task.id)
  const starting = new Set(start)
  return { schedule: withStatus(readied, (task) => (starting.has(task.id) ? "running" : task.status)), start }
}

/** A failed (or blocked) task blocks every task that waits on it, directly or through another. */
export const blockDependents = (schedule: Schedule): Schedule => {
  const waiting = (task: ScheduledTask) => task.status === "pending" || task.status === "ready"
  const stopped = withDependents(
    schedule.tasks,
    schedule.tasks.filter((task) => task.status === "failed" || task.status === "blocked").map((task) => task.id),
    waiting
  )
  return withStatus(schedule, (task) => (waiting(task) && stopped.has(task.id) ? "blocked" : task.status))
}

export const complete = (schedule: Schedule, id: string, outcome: "done" | "failed"): Schedule => {
  const task = schedule.tasks.find((candidate) => candidate.id === id)
  if (task?.status !== "running") throw new Error(`schedule: ${id} is not running (${task?.status ?? "unknown"})`)
  const finished = withStatus(schedule, (candidate) => (candidate.id === id ? outcome : candidate.status))
  return outcome === "failed" ? blockDependents(finished) : finished
}

/**
 * Everything not yet finished is cancelled, running tasks included (the runner interrupts them).
 * Blocked tasks stay blocked: that already says why they never ran.
 */
export const cancel = (schedule: Schedule): Schedule =>
  withStatus(schedule, (task) =>
    task.status === "pending" || task.status === "ready" || task.status === "running" || task.status === "waiting"
      ? "cancelled"
      : task.status
  )

/** Nothing is left to start or to wait for. */
export const isSettled = (schedule: Schedule): boolean =>
  schedule.tasks.every(
    (task) =>
      task.status !== "pending" && task.status !== "ready" && task.status !== "running" && task.status !== "waiting"
  )

/**
 * A lower bound on the wall time of any schedule of these tasks on `bound` workers: no schedule
 * beats the critical path (the longest chain of dependent durations), nor the total work spread
 * perfectly over the workers. Greedy list scheduling (our runner) is within critical path plus
 * total work / bound (Graham), so a run's wall time over this bound lies between 1 and about 2
 * when the runner adds no overhead of its own.
 */
export const idealWallTime = (
  tasks: ReadonlyArray<TaskNode>,
  durationOf: (id: string) => number,
  bound: number
): number => {
  assertBound(bound)
  const finish = new Map<string, number>()
  let totalWork = 0
  for (const task of topologicalOrder(tasks)) {
    const duration = durationOf(task.id)
    totalWork += duration
    finish.set(task.id, duration + Math.max(0, ...task.dependsOn.map((dependency) => finish.get(dependency) ?? 0)))
  }
  const criticalPath = Math.max(0, ...finish.values())
  return Math.max(criticalPath, totalWork / bound)
}
