import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import { describe, expect, it } from "vitest"
import { keepKnownSkills, Plan, repairPlan } from "../../../actors/project/contract/plan.ts"

const plan = (tasks: ReadonlyArray<Record<string, unknown>>) => Schema.decodeUnknownSync(Plan)({ tasks })

const research = { id: "dig", title: "Dig", role: "researcher" }

const edges = (repaired: Plan) => Object.fromEntries(repaired.tasks.map((task) => [task.id, task.dependsOn]))

describe("Plan", () => {
  it("fills task defaults and refuses an empty plan or a task without an id", () => {
    expect(plan([{ id: "a", title: "A", role: "writer" }]).tasks[0]).toEqual({
      id: "a",
      title: "A",
      description: "",
      role: "writer",
      skills: [],
      tier: "cheap",
      dependsOn: []
    })
    expect(Either.isLeft(Schema.decodeUnknownEither(Plan)({ tasks: [] }))).toBe(true)
    expect(Either.isLeft(Schema.decodeUnknownEither(Plan)({ tasks: [{ id: "", title: "A", role: "writer" }] }))).toBe(
      true
    )
  })
})

describe("repairPlan", () => {
  it("leaves a sound plan as it is and reports nothing", () => {
    const sound = plan([research, { id: "write", title: "Write", role: "writer", dependsOn: ["dig"] }])
    expect(repairPlan(sound)).toEqual({ plan: sound, repairs: [] })
  })

  it("breaks a cycle by dropping the back edge found depth-first in plan order", () => {
    const cyclic = plan([
      research,
      { id: "a", title: "A", role: "writer", dependsOn: ["dig", "c"] },
      { id: "b", title: "B", role: "editor", dependsOn: ["a"] },
      { id: "c", title: "C", role: "editor", dependsOn: ["b"] }
    ])
    const { plan: repaired, repairs } = repairPlan(cyclic)
    // a -> c -> b -> a: the edge b -> a closes the cycle first met from a.
    expect(edges(repaired)).toEqual({ dig: [], a: ["dig", "c"], b: [], c: ["b"] })
    expect(repairs).toEqual([{ kind: "cycle", taskId: "b", message: expect.stringContaining('"b" depending on "a"') }])
    expect(repairPlan(cyclic)).toEqual({ plan: repaired, repairs })
  })

  it("drops a dependency of a task on itself, and breaks two cycles", () => {
    const { plan: repaired, repairs } = repairPlan(
      plan([
        research,
        { id: "a", title: "A", role: "writer", dependsOn: ["a", "b"] },
        { id: "b", title: "B", role: "writer", dependsOn: ["a"] }
      ])
    )
    expect(edges(repaired)).toEqual({ dig: [], a: ["b"], b: [] })
    expect(repairs.map((repair) => [repair.kind, repair.taskId])).toEqual([
      ["cycle", "a"],
      ["cycle", "b"]
    ])
  })

  it("drops dependencies on unknown ids and repeated ones, and says so", () => {
    const { plan: repaired, repairs } = repairPlan(
      plan([research, { id: "write", title: "Write", role: "writer", dependsOn: ["dig", "outline", "dig"] }])
    )
    expect(edges(repaired)).toEqual({ dig: [], write: ["dig"] })
    expect(repairs.map((repair) => repair.kind)).toEqual(["unknown-dependency", "duplicate-dependency"])
    expect(repairs[0]?.message).toContain('"outline"')
  })

  it("adds a research task first when none researches, and roots wait on it", () => {
    const { plan: repaired, repairs } = repairPlan(
      plan([
        { id: "outline", title: "Outline", role: "writer" },
        { id: "draft", title: "Draft", role: "writer", dependsOn: ["outline"] },
        { id: "cover", title: "Cover", role: "designer", skills: ["image.generate"] }
      ])
    )
    expect(repaired.tasks[0]).toMatchObject({
      id: "research",
      role: "researcher",
      dependsOn: [],
      deliverable: { file: "research.md" }
    })
    expect(repaired.tasks[0]?.skills).toEqual(expect.arrayContaining(["web.search", "web.research", "files.write"]))
    expect(edges(repaired)).toEqual({ research: [], outline: ["research"], draft: ["outline"], cover: ["research"] })
    expect(repairs).toEqual([
      { kind: "research", taskId: "research", message: expect.stringContaining('"outline", "cover"') }
    ])
  })

  it("counts a task using web.search or web.research as research, whatever its role", () => {
    for (const skill of ["web.search", "web.research"]) {
      const repaired = repairPlan(plan([{ id: "a", title: "A", role: "analyst", skills: [skill] }]))
      expect(repaired.repairs).toEqual([])
    }
    expect(repairPlan(plan([{ id: "a", title: "A", role: " Researcher " }])).repairs).toEqual([])
    expect(
      repairPlan(plan([{ id: "a", title: "A", role: "analyst", skills: ["web.fetch"] }])).repairs.map(
        (repair) => repair.kind
      )
    ).toEqual(["research"])
  })

  it("gives the added research task an id no task uses", () => {
    const { plan: repaired } = repairPlan(plan([{ id: "research", title: "Market research", role: "analyst" }]))
    expect(repaired.tasks.map((task) => task.id)).toEqual(["research-2", "research"])
    expect(edges(repaired)).toEqual({ "research-2": [], research: ["research-2"] })
  })

  it("renames a repeated task id, keeping dependencies on the first", () => {
    const { plan: repaired, repairs } = repairPlan(
      plan([
        research,
        { id: "write", title: "Write", role: "writer", dependsOn: ["dig"] },
        { id: "write", title: "Write again", role: "writer", dependsOn: ["write"] }
      ])
    )
    expect(repaired.tasks.map((task) => task.id)).toEqual(["dig", "write", "write-2"])
    expect(edges(repaired)).toEqual({ dig: [], write: ["dig"], "write-2": ["write"] })
    expect(repairs.map((repair) => [repair.kind, repair.taskId])).toEqual([["duplicate-id", "write-2"]])
  })

  it("runs a task that asked for the strong tier on standard", () => {
    const { plan: repaired, repairs } = repairPlan(plan([{ ...research, tier: "strong" }]))
    expect(repaired.tasks[0]?.tier).toBe("standard")
    expect(repairs.map((repair) => repair.kind)).toEqual(["tier"])
  })
})

describe("keepKnownSkills", () => {
  it("drops the skills the node does not have and says so, keeping the rest", () => {
    const plan = Schema.decodeUnknownSync(Plan)({
      tasks: [
        { id: "research", title: "Research", role: "researcher", skills: ["web.search", "crystal.ball"] },
        { id: "write", title: "Write", role: "writer", skills: ["files.write"] }
      ]
    })
    const { plan: kept, repairs } = keepKnownSkills(plan, new Set(["web.search", "files.write"]))
    expect(kept.tasks.map((task) => task.skills)).toEqual([["web.search"], ["files.write"]])
    expect(repairs).toEqual([
      { kind: "unknown-skill", taskId: "research", message: expect.stringContaining("crystal.ball") }
    ])
  })
})
