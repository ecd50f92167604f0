import * as Schema from "effect/Schema"
import { describe, expect, it } from "vitest"
import { GeneratorInput } from "../../../extensions/generators/contract/generator.ts"
import { checkInputs, inputsSchemaProblem } from "../../../extensions/generators/input-form.ts"
import { validateGenerator } from "../../../extensions/generators/validation.ts"
import { generatorCatalogue } from "../../../seeds/generators/index.ts"

const catalogue = new Set([
  "web.search",
  "web.fetch",
  "files.read",
  "files.write",
  "docs.write_markdown",
  "math.evaluate"
])

type StepFields = Record<string, unknown>

const generator = (steps: ReadonlyArray<StepFields>, extra: Record<string, unknown> = {}) =>
  Schema.decodeUnknownSync(GeneratorInput)({
    name: "Test",
    description: "",
    inputsSchema: { type: "object", properties: { topic: { type: "string" } } },
    steps: steps.map((step) => ({ title: "Step", role: "writer", skills: [], instruction: "Do it.", ...step })),
    outputKinds: ["markdown"],
    ...extra
  })

const problemOf = (steps: ReadonlyArray<StepFields>, extra?: Record<string, unknown>) =>
  validateGenerator(generator(steps, extra), catalogue)

describe("validateGenerator", () => {
  it("passes a generator that keeps every rule", () => {
    expect(
      problemOf([
        { id: "research", skills: ["web.search"], instruction: "Research {{inputs.topic}}." },
        {
          id: "write",
          skills: ["docs.write_markdown"],
          instruction: "From {{steps.research.output}}",
          dependsOn: ["research"],
          tier: "standard"
        }
      ])
    ).toBeNull()
  })

  it("passes every seeded generator against the skills they name", () => {
    for (const seed of generatorCatalogue)
      expect(
        validateGenerator(
          Schema.decodeUnknownSync(GeneratorInput)(seed),
          new Set([...catalogue, "files.read", "scene3d.create", "code.scaffold_react_node", "docs.write_docx"])
        ),
        seed.slug
      ).toBeNull()
  })

  it("refuses duplicate step ids (rule unique)", () => {
    expect(problemOf([{ id: "a" }, { id: "a" }])).toMatchObject({
      code: "generator_duplicate_id",
      details: { rule: "unique", step: "a" }
    })
  })

  it("refuses a skill outside the catalogue, including one a contract's build check names (rule skills)", () => {
    expect(problemOf([{ id: "a", skills: ["web.search", "docs.write_pdf"] }])).toMatchObject({
      code: "generator_unknown_skill",
      details: { rule: "skills", step: "a", skill: "docs.write_pdf" }
    })
    expect(problemOf([{ id: "a", deliverable: { build: {} } }])).toMatchObject({
      code: "generator_unknown_skill",
      details: { skill: "code.scaffold_react_node" }
    })
    expect(problemOf([{ id: "a", deliverable: { authored: { kind: "agent" } } }])).toMatchObject({
      code: "generator_unknown_skill",
      details: { skill: "studio.author_agent" }
    })
    expect(problemOf([{ id: "a", deliverable: { authored: { kind: "agent", skill: "files.write" } } }])).toBeNull()
  })

  it("refuses a dependency on a later step, on itself, or on no step (rule order)", () => {
    for (const dependsOn of ["b", "a", "ghost"]) {
      expect(problemOf([{ id: "a", dependsOn: [dependsOn] }, { id: "b" }]), dependsOn).toMatchObject({
        code: "generator_forward_dependency",
        details: { rule: "order", step: "a", dependsOn }
      })
    }
  })

  it("refuses reading the output of a step that does not come earlier (rule references)", () => {
    expect(problemOf([{ id: "a", instruction: "Use {{steps.b.output}}" }, { id: "b" }])).toMatchObject({
      code: "generator_unbacked_reference",
      details: { rule: "references", step: "a", reference: "b" }
    })
    expect(problemOf([{ id: "a", title: "After {{ steps.a.output }}" }])).toMatchObject({
      code: "generator_unbacked_reference",
      details: { reference: "a" }
    })
  })

  it("refuses 'strong' and any tier other than cheap and standard (rule tier)", () => {
    expect(problemOf([{ id: "a", tier: "strong" }])).toMatchObject({
      code: "generator_step_tier",
      details: { rule: "tier", step: "a", tier: "strong" }
    })
    expect(problemOf([{ id: "a", tier: "strong" }])?.message).toContain("reserved for the planner")
    expect(problemOf([{ id: "a", tier: "image" }])).toMatchObject({
      code: "generator_step_tier",
      details: { tier: "image" }
    })
  })

  it("refuses a declared output kind that no step produces (rule outputs)", () => {
    expect(problemOf([{ id: "a" }], { outputKinds: ["markdown", "pdf"] })).toMatchObject({
      code: "generator_undeclared_output",
      details: { rule: "outputs", outputKind: "pdf" }
    })
  })

  it("refuses an unusable input form and a template naming a field the form lacks (rule inputs)", () => {
    expect(
      problemOf([{ id: "a" }], { inputsSchema: { type: "object", properties: { n: { type: "numbr" } } } })
    ).toMatchObject({ code: "generator_invalid_input_schema", details: { rule: "inputs" } })
    expect(problemOf([{ id: "a", title: "On {{inputs.subject}}" }])).toMatchObject({
      code: "generator_unknown_input",
      details: { rule: "inputs", step: "a", input: "subject" }
    })
    expect(problemOf([{ id: "a", deliverable: { words: { target: "{{inputs.lenght}}" } } }])).toMatchObject({
      code: "generator_unknown_input",
      details: { input: "lenght" }
    })
  })
})

describe("the input form", () => {
  const form = {
    type: "object",
    required: ["topic"],
    properties: {
      topic: { type: "string", minLength: 3, "x-placeholder": "Tides", "x-multiline": true },
      length: { type: "integer", minimum: 100, default: 800, "x-advanced": true },
      cta: { type: "boolean", default: false },
      ctaText: { type: "string", "x-showWhen": "cta" }
    }
  }

  it("accepts JSON Schema with the four hints", () => {
    expect(inputsSchemaProblem(form)).toBeNull()
  })

  it("names what makes a form unusable", () => {
    expect(inputsSchemaProblem({ type: "array" })).toContain('type "object"')
    expect(inputsSchemaProblem({ type: "object", properties: { a: { type: "string", minLenght: 3 } } })).toContain(
      "unknown keyword"
    )
    expect(
      inputsSchemaProblem({ type: "object", properties: { a: { type: "string", "x-multiline": "yes" } } })
    ).toContain("x-multiline")
    expect(
      inputsSchemaProblem({
        type: "object",
        properties: { a: { type: "string", "x-showWhen": "b" }, b: { type: "string" } }
      })
    ).toContain("boolean field")
    expect(inputsSchemaProblem({ type: "object", properties: { "my field": { type: "string" } } })).toContain(
      "template"
    )
    expect(
      inputsSchemaProblem({ type: "object", properties: { a: { $ref: "https://example.org/schema" } } })
    ).not.toBeNull()
  })

  it("checks a run's inputs and fills the defaults, without touching what it was given", () => {
    const given = { topic: "Tides" }
    expect(checkInputs(form, given)).toEqual({ ok: true, inputs: { topic: "Tides", length: 800, cta: false } })
    expect(given).toEqual({ topic: "Tides" })
    const refused = checkInputs(form, { topic: "x", length: 5 })
    expect(refused.ok).toBe(false)
    expect(!refused.ok && refused.issues.map((issue) => issue.path).sort()).toEqual(["/length", "/topic"])
  })
  it("forgets each form after use: two members' forms with one $id are each checked against their own", () => {
    const first = { $id: "https://example.org/form", type: "object", properties: { a: { type: "string" } } }
    const second = { $id: "https://example.org/form", type: "object", properties: { a: { type: "number" } } }
    expect(inputsSchemaProblem(first)).toBeNull()
    expect(inputsSchemaProblem(second)).toBeNull()
    expect(checkInputs(first, { a: "text" }).ok).toBe(true)
    expect(checkInputs(second, { a: "text" }).ok).toBe(false)
    expect(checkInputs(second, { a: 3 }).ok).toBe(true)
    // A form that fails to compile leaves nothing behind either.
    expect(inputsSchemaProblem({ ...first, properties: { a: { type: "string", minLenght: 3 } } })).not.toBeNull()
    expect(checkInputs(first, { a: "text" }).ok).toBe(true)
  })
})
