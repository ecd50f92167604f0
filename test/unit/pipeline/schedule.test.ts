import { describe, expect, it } from "vitest"
import {
  cancel,
  complete,
  idealWallTime,
  isSettled,
  nextReady,
  startSchedule,
  type Schedule,
  type TaskNode
} from "../../../actors/project/pipeline/schedule.ts"

const statuses = (schedule: Schedule) => Object.fromEntries(schedule.tasks.map((task) => [task.id, task.status]))

/** research -> (a, b, c) -> report: a diamond with three tasks in the middle. */
const diamond: ReadonlyArray<TaskNode> = [
  { id: "research", dependsOn: [] },
  { id: "a", dependsOn: ["research"] },
  { id: "b", dependsOn: ["research"] },
  { id: "c", dependsOn: ["research"] },
  { id: "report", dependsOn: ["a", "b", "c"] }
]

/** Runs the schedule to the end, finishing running tasks in start order; records each round's starts. */
const runAll = (tasks: ReadonlyArray<TaskNode>, bound: number, fails: ReadonlySet<string> = new Set()) => {
  let schedule = startSchedule(tasks)
  const rounds: Array<ReadonlyArray<string>> = []
  const running: Array<string> = []
  while (!isSettled(schedule)) {
    const next = nextReady(schedule, bound)
    schedule = next.schedule
    if (next.start.length > 0) rounds.push(next.start)
    running.push(...next.start)
    expect(schedule.tasks.filter((task) => task.status === "running").length).toBeLessThanOrEqual(bound)
    const finished = running.shift()
    if (finished === undefined) break
    schedule = complete(schedule, finished, fails.has(finished) ? "failed" : "done")
  }
  return { schedule, rounds }
}

describe("the schedule", () => {
  it("starts only tasks whose dependencies are done", () => {
    const first = nextReady(startSchedule(diamond), 4)
    expect(first.start).toEqual(["research"])
    expect(statuses(first.schedule)).toMatchObject({ research: "running", a: "pending", report: "pending" })
    expect(nextReady(first.schedule, 4).start).toEqual([])
    const second = nextReady(complete(first.schedule, "research", "done"), 4)
    expect(second.start).toEqual(["a", "b", "c"])
  })

  it("never runs more than the bound, and marks the tasks waiting for a slot ready, in plan order", () => {
    let schedule = complete(nextReady(startSchedule(diamond), 2).schedule, "research", "done")
    const next = nextReady(schedule, 2)
    expect(next.start).toEqual(["a", "b"])
    expect(statuses(next.schedule)).toMatchObject({ a: "running", b: "running", c: "ready" })
    schedule = complete(next.schedule, "b", "done")
    expect(nextReady(schedule, 2).start).toEqual(["c"])
  })

  it("runs a whole DAG in dependency order within the bound", () => {
    const { rounds, schedule } = runAll(diamond, 2)
    expect(rounds).toEqual([["research"], ["a", "b"], ["c"], ["report"]])
    expect(Object.values(statuses(schedule))).toEqual(["done", "done", "done", "done", "done"])
  })

  it("blocks every task downstream of a failure, and lets the others finish", () => {
    const tasks: ReadonlyArray<TaskNode> = [
      { id: "research", dependsOn: [] },
      { id: "draft", dependsOn: ["research"] },
      { id: "cover", dependsOn: ["research"] },
      { id: "edit", dependsOn: ["draft"] },
      { id: "publish", dependsOn: ["edit", "cover"] }
    ]
    const { schedule } = runAll(tasks, 3, new Set(["draft"]))
    expect(statuses(schedule)).toEqual({
      research: "done",
      draft: "failed",
      cover: "done",
      edit: "blocked",
      publish: "blocked"
    })
  })

  it("cancels everything unfinished, running tasks included; finished and blocked tasks keep their status", () => {
    const tasks: ReadonlyArray<TaskNode> = [
      { id: "x", dependsOn: [] },
      { id: "y", dependsOn: [] },
      { id: "z", dependsOn: ["y"] },
      { id: "w", dependsOn: ["x"] },
      { id: "v", dependsOn: [] }
    ]
    let schedule = nextReady(startSchedule(tasks), 2).schedule
    schedule = complete(schedule, "x", "done")
    schedule = complete(schedule, "y", "failed")
    schedule = nextReady(schedule, 1).schedule
    expect(statuses(schedule)).toEqual({ x: "done", y: "failed", z: "blocked", w: "running", v: "ready" })
    const cancelled = cancel(schedule)
    expect(statuses(cancelled)).toEqual({ x: "done", y: "failed", z: "blocked", w: "cancelled", v: "cancelled" })
    expect(isSettled(cancelled)).toBe(true)
  })

  it("refuses to complete a task that is not running, an unsound DAG, or a bound below one", () => {
    const schedule = startSchedule(diamond)
    expect(() => complete(schedule, "a", "done")).toThrow(/not running/)
    expect(() =>
      startSchedule([
        { id: "a", dependsOn: ["b"] },
        { id: "b", dependsOn: ["a"] }
      ])
    ).toThrow(/cycle/)
    expect(() => startSchedule([{ id: "a", dependsOn: ["ghost"] }])).toThrow(/unknown/)
    expect(() => nextReady(schedule, 0)).toThrow(/bound/)
  })
})

describe("idealWallTime", () => {
  const durations: Record<string, number> = { research: 10, a: 20, b: 30, c: 40, report: 5 }
  const durationOf = (id: string) => durations[id] ?? 0

  it("is the critical path when the workers are enough", () => {
    expect(idealWallTime(diamond, durationOf, 3)).toBe(55)
  })

  it("is the total work over the workers when they are few", () => {
    expect(idealWallTime(diamond, durationOf, 1)).toBe(105)
    expect(idealWallTime(diamond, durationOf, 2)).toBe(55)
    const wide: ReadonlyArray<TaskNode> = ["p", "q", "r", "s"].map((id) => ({ id, dependsOn: [] }))
    expect(idealWallTime(wide, () => 10, 2)).toBe(20)
    expect(idealWallTime(wide, () => 10, 3)).toBeCloseTo(40 / 3)
  })

  it("follows the longest chain, not the most tasks", () => {
    const tasks: ReadonlyArray<TaskNode> = [
      { id: "long", dependsOn: [] },
      { id: "s1", dependsOn: [] },
      { id: "s2", dependsOn: ["s1"] },
      { id: "s3", dependsOn: ["s2"] },
      { id: "end", dependsOn: ["long", "s3"] }
    ]
    const lengths: Record<string, number> = { long: 100, s1: 10, s2: 10, s3: 10, end: 1 }
    expect(idealWallTime(tasks, (id) => lengths[id] ?? 0, 8)).toBe(101)
  })
})
