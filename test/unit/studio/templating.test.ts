import * as Schema from "effect/Schema"
import { describe, expect, it } from "vitest"
import { GeneratorStep } from "../../../extensions/generators/contract/step.ts"
import { impliedDependencies, renderStep, renderTemplate } from "../../../extensions/generators/contract/templating.ts"

const step = (fields: Partial<typeof GeneratorStep.Encoded> = {}) =>
  Schema.decodeUnknownSync(GeneratorStep)({
    id: "write",
    title: "Write",
    role: "writer",
    skills: [],
    instruction: "Write.",
    ...fields
  })

describe("renderTemplate", () => {
  it("fills {{inputs.x}} with the form's values, spaces inside the braces allowed", () => {
    expect(
      renderTemplate(
        "A post on {{inputs.topic}} for {{ inputs.audience }}.",
        { topic: "tides", audience: "sailors" },
        {}
      )
    ).toBe("A post on tides for sailors.")
  })

  it("reads numbers, booleans and lists as text, and a field left blank as nothing", () => {
    expect(
      renderTemplate(
        "{{inputs.n}} {{inputs.yes}} {{inputs.tags}} [{{inputs.missing}}] [{{inputs.none}}]",
        {
          n: 1200,
          yes: false,
          tags: ["a", "b"],
          none: null
        },
        {}
      )
    ).toBe("1200 false a, b [] []")
  })

  it("fills {{steps.x.output}} with that step's text, and keeps a reference whose output is not there yet", () => {
    expect(
      renderTemplate("Notes: {{steps.research.output}} / {{steps.outline.output}}", {}, { research: "three facts" })
    ).toBe("Notes: three facts / {{steps.outline.output}}")
  })

  it("leaves any other braces as written (code in an instruction)", () => {
    const text = "Render <p>{{ user.name }}</p> and {{inputs}} and {{steps.x.outputs}}"
    expect(renderTemplate(text, { user: "x" }, { x: "y" })).toBe(text)
  })

  it("does not re-read a filled value as a template", () => {
    expect(renderTemplate("{{inputs.a}}", { a: "{{steps.secret.output}}" }, { secret: "leak" })).toBe(
      "{{steps.secret.output}}"
    )
  })
})

describe("impliedDependencies", () => {
  it("names each step whose output the title or instruction reads, once, in order", () => {
    const implied = step({
      title: "From {{steps.outline.output}}",
      instruction: "Use {{steps.research.output}} and again {{steps.outline.output}}; {{inputs.topic}} is no step."
    })
    expect(impliedDependencies(implied)).toEqual(["outline", "research"])
    expect(impliedDependencies(step())).toEqual([])
  })
})

describe("renderStep", () => {
  it("renders title and instruction and adds the implied dependencies after the explicit ones", () => {
    const rendered = renderStep(
      step({
        title: "Draft on {{inputs.topic}}",
        instruction: "From {{steps.outline.output}}",
        dependsOn: ["research", "outline"]
      }),
      { topic: "tides" },
      { outline: "1. Moon" }
    )
    expect(rendered).toMatchObject({
      title: "Draft on tides",
      instruction: "From 1. Moon",
      dependsOn: ["research", "outline"]
    })
    expect(
      renderStep(step({ instruction: "From {{steps.outline.output}}", dependsOn: ["research"] }), {}, {}).dependsOn
    ).toEqual(["research", "outline"])
  })

  it("renders at plan time with the inputs only, keeping step references for the task's start", () => {
    const original = step({
      title: "On {{inputs.topic}}",
      instruction: "Edit {{steps.draft.output}} for {{inputs.topic}}"
    })
    const planned = renderStep(original, { topic: "tides" }, {})
    expect(planned).toMatchObject({
      title: "On tides",
      instruction: "Edit {{steps.draft.output}} for tides",
      dependsOn: ["draft"]
    })
    expect(renderStep(original, { topic: "tides" }, { draft: "The draft." }).instruction).toBe(
      "Edit The draft. for tides"
    )
  })

  it("leaves the contract as the step has it", () => {
    const contract = step({ deliverable: { file: "post.md", words: { target: "{{inputs.length}}" } } })
    expect(renderStep(contract, { length: 900 }, {}).deliverable).toEqual(contract.deliverable)
    expect(renderStep(step(), {}, {})).not.toHaveProperty("deliverable")
  })
})
