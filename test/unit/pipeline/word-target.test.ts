import * as Schema from "effect/Schema"
import { describe, expect, it } from "vitest"
import { DeliverableContract } from "../../../actors/project/contract/deliverable.ts"
import { planContract, renderWordTarget } from "../../../actors/project/pipeline/word-target.ts"

describe("renderWordTarget", () => {
  it("keeps a numeric target", () => {
    expect(renderWordTarget(800, {})).toBe(800)
  })

  it("renders an input reference to the number it holds, given as a number or as text", () => {
    expect(renderWordTarget("{{inputs.length}}", { length: 1200 })).toBe(1200)
    expect(renderWordTarget("{{ inputs.length }}", { length: "900" })).toBe(900)
    expect(renderWordTarget("{{inputs.a}}{{inputs.b}}", { a: 1, b: "5" })).toBe(15)
    expect(renderWordTarget("{{inputs.length}}", { length: 749.6 })).toBe(750)
  })

  it("disables the check (null) for anything that is not a positive number", () => {
    expect(renderWordTarget("{{inputs.length}}", { length: "short" })).toBeNull()
    expect(renderWordTarget("{{inputs.length}}", { length: 0 })).toBeNull()
    expect(renderWordTarget("{{inputs.length}}", { length: -300 })).toBeNull()
    expect(renderWordTarget("{{inputs.length}}", { length: "1200 words" })).toBeNull()
    expect(renderWordTarget("{{inputs.length}}", {})).toBeNull()
    expect(renderWordTarget("{{inputs.length}}", null)).toBeNull()
    expect(renderWordTarget("{{inputs.constructor}}", {})).toBeNull()
    expect(renderWordTarget("{{inputs.length}}", { length: { words: 3 } })).toBeNull()
    expect(renderWordTarget("{{steps.outline.output}}", {})).toBeNull()
    expect(renderWordTarget("lots", {})).toBeNull()
  })
})

describe("planContract", () => {
  const contract = (words: unknown) => Schema.decodeUnknownSync(DeliverableContract)({ file: "a.md", words })

  it("renders the target and keeps tolerance and floor", () => {
    expect(
      planContract(contract({ target: "{{inputs.length}}", tolerance: 0.1, floor: 500 }), { length: "1000" }).words
    ).toEqual({ target: 1000, tolerance: 0.1, floor: 500 })
  })

  it("drops the words check when the target does not render, and keeps the rest", () => {
    const planned = planContract(contract({ target: "{{inputs.length}}" }), { length: "long" })
    expect(planned).not.toHaveProperty("words")
    expect(planned.file).toBe("a.md")
  })
})
