/** What a replay runs again and what it adds to its step: pure parts of actors/project/replay.ts. */
import { describe, expect, it } from "vitest"
import { describedWith, downstreamOf } from "../../../actors/project/replay.ts"
import { taskRecord } from "./task-record.ts"

describe("the steps a replay runs again", () => {
  it("are the step and every step depending on it, however far down and by however many ways", () => {
    // a → b → d, a → c → d, e alone, f → b
    const tasks = [
      taskRecord({ id: "a" }),
      taskRecord({ id: "b", dependsOn: ["a", "f"] }),
      taskRecord({ id: "c", dependsOn: ["a"] }),
      taskRecord({ id: "d", dependsOn: ["c", "b"] }),
      taskRecord({ id: "e" }),
      taskRecord({ id: "f" })
    ]
    expect([...downstreamOf(tasks, "a")].sort()).toEqual(["a", "b", "c", "d"])
    expect([...downstreamOf(tasks, "f")].sort()).toEqual(["b", "d", "f"])
    expect([...downstreamOf(tasks, "d")]).toEqual(["d"])
    expect([...downstreamOf(tasks, "e")]).toEqual(["e"])
  })

  it("take a dependency on a step no longer in the plan for no edge, as the run does", () => {
    const tasks = [taskRecord({ id: "a" }), taskRecord({ id: "b", dependsOn: ["a", "gone"] })]
    expect([...downstreamOf(tasks, "a")].sort()).toEqual(["a", "b"])
    expect([...downstreamOf(tasks, "b")]).toEqual(["b"])
  })
})

describe("the instruction a replay adds to its step", () => {
  it("follows the description, and a later one takes the place of the earlier", () => {
    const first = taskRecord({ description: "Write the note." })
    const once = describedWith(first, "Shorter.")
    expect(once).toBe("Write the note.\n\nAdded when run again: Shorter.")
    const again = describedWith({ ...first, description: once, addedInstruction: "Shorter." }, "Add a table.")
    expect(again).toBe("Write the note.\n\nAdded when run again: Add a table.")
  })
})
