import { describe, expect, it } from "vitest"
import { planEdit, type EditContext, type PlanWrites } from "../../../actors/project/plan-edit.ts"
import { taskRecord } from "./task-record.ts"

const task = taskRecord

let counter = 0
const context: EditContext = {
  ownerId: "owner",
  projectId: "p",
  projectStatus: "running",
  agentIds: new Set(["agent-1"]),
  personIds: new Set(["owner"]),
  knownSkills: new Set(["files.write"]),
  newId: () => `new-${++counter}`
}

const research = task({ id: "r", key: "research", title: "Research", role: "researcher", status: "done" })
const report = task({
  id: "w",
  key: "report",
  title: "Report on tea",
  instruction: "Write a report on tea from {{steps.notes.output}}",
  dependsOn: ["r"]
})

const writes = (result: ReturnType<typeof planEdit>): PlanWrites => {
  if (!("removed" in result)) throw new Error(`refused: ${result.message}`)
  return result
}

describe("a plan edit's rows", () => {
  it("keeps a generator step's rendered instruction unless its words changed", () => {
    const same = writes(
      planEdit([research, report], [{ id: "w", title: "Report on tea", role: "writer", dependsOn: ["r"] }], context)
    )
    expect(same.rewritten[0]).toMatchObject({
      id: "w",
      instruction: "Write a report on tea from {{steps.notes.output}}",
      position: 1
    })
    const retitled = writes(
      planEdit([research, report], [{ id: "w", title: "Report on coffee", role: "writer", dependsOn: ["r"] }], context)
    )
    expect(retitled.rewritten[0]!.instruction).toBe("Report on coffee")
  })

  it("names new steps by their place in the list, gives a gate to the owner, and a research step it adds an id of ours", () => {
    const noResearch = task({ id: "a", key: "a", title: "Alpha" })
    const result = writes(
      planEdit(
        [noResearch],
        [
          { id: "a", title: "Alpha", role: "writer", dependsOn: ["#1"] },
          { title: "Check it", role: "approver", kind: "approval" }
        ],
        { ...context, newId: () => `id-${++counter}` }
      )
    )
    const gate = result.inserted.find((row) => row.kind === "approval")!
    expect(gate).toMatchObject({ assigneeBeingId: "owner", assigneeAgentId: "owner", pinned: true, key: "check-it" })
    expect(result.rewritten[0]!.dependsOn).toEqual([gate.id])
    const added = result.inserted.find((row) => row.role === "researcher")!
    expect(added.id).toMatch(/^id-/)
    expect(gate.dependsOn).toEqual([added.id])
    expect(result.repairs.map((repair) => repair.kind)).toEqual(["research"])
  })
})
