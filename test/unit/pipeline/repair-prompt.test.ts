import * as Schema from "effect/Schema"
import { describe, expect, it } from "vitest"
import { checkDeliverable } from "../../../actors/project/pipeline/checks.ts"
import { DeliverableContract } from "../../../actors/project/contract/deliverable.ts"
import { canRepair, repairPrompt } from "../../../actors/project/pipeline/repair-prompt.ts"
import { planContract } from "../../../actors/project/pipeline/word-target.ts"

const contract = (fields: Record<string, unknown>) =>
  planContract(Schema.decodeUnknownSync(DeliverableContract)(fields), {})

describe("repairPrompt", () => {
  it("lists every failure with its code and exact message, and says to save the file again", () => {
    const planned = contract({ file: "essay.md", words: { target: 500 }, minSourceLinks: 2, maxRepairs: 2 })
    const report = checkDeliverable(planned, { saved: [{ path: "essay.md", content: "Too short." }] })
    const prompt = repairPrompt(report, planned)
    expect(prompt).toContain("repair 1 of 2")
    expect(prompt).toContain(`1. [words] ${report.failures[0]?.message}`)
    expect(prompt).toContain(`2. [sources] ${report.failures[1]?.message}`)
    expect(prompt).toContain("essay.md has 2 words; it needs between 400 and 600")
    expect(prompt).toContain("files.write at essay.md")
  })

  it("counts the repairs already made", () => {
    const planned = contract({ file: "a.md", requireSections: ["Sources"], maxRepairs: 2 })
    const report = { ...checkDeliverable(planned, { saved: [{ path: "a.md", content: "Text." }] }), repairs: 1 }
    expect(repairPrompt(report, planned)).toContain("repair 2 of 2")
  })

  it("asks for the build again, with its log, when the build failed", () => {
    const planned = contract({ build: {} })
    const report = checkDeliverable(planned, {
      saved: [],
      skillResults: [
        {
          skill: "code.scaffold_react_node",
          ok: true,
          output: { built: false, buildLog: "error TS2304: Cannot find name 'App'" }
        }
      ]
    })
    const prompt = repairPrompt(report, planned)
    expect(prompt).toContain("error TS2304: Cannot find name 'App'")
    expect(prompt).toContain("run code.scaffold_react_node again")
    expect(prompt).not.toContain("files.write")
  })

  it("asks for the authoring skill again when too few were authored", () => {
    const planned = contract({ authored: { kind: "generator", min: 2 } })
    const report = checkDeliverable(planned, {
      saved: [],
      skillResults: [{ skill: "studio.author_generator", ok: true, output: { authored: true } }]
    })
    expect(repairPrompt(report, planned)).toContain(
      "[authored] 1 generator authored with studio.author_generator; at least 2 needed."
    )
    expect(repairPrompt(report, planned)).toContain("Call studio.author_generator again")
  })
})

describe("canRepair", () => {
  it("allows repairs up to maxRepairs, and none for a passing report", () => {
    const planned = contract({ file: "a.md", maxRepairs: 1 })
    const failing = checkDeliverable(planned, { saved: [] })
    expect(canRepair(failing, planned)).toBe(true)
    expect(canRepair({ ...failing, repairs: 1 }, planned)).toBe(false)
    expect(canRepair(failing, contract({ file: "a.md", maxRepairs: 0 }))).toBe(false)
    expect(canRepair(checkDeliverable(planned, { saved: [{ path: "a.md", content: "Done." }] }), planned)).toBe(false)
  })
})
