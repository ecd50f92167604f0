/**
 * The spec's generator validation, as one pure function over a generator and the built-in skill
 * catalogue: step ids unique; the input form usable and every `{{inputs.x}}` one of its fields;
 * every skill in the catalogue; every dependsOn an earlier step; every `{{steps.x.output}}` an
 * earlier step; only the 'cheap' and 'standard' tiers; every declared output kind produced by a
 * step. The first broken rule is answered, named by its code and rule. Slug uniqueness needs the
 * other generators, so the service checks it.
 */
import { authoringSkillOf } from "../../actors/project/contract/deliverable.ts"
import type { GeneratorProblemCode } from "./contract/errors.ts"
import type { GeneratorDefinition } from "./contract/generators.ts"
import { inputFields, inputsSchemaProblem } from "./input-form.ts"
import type { GeneratorStep } from "./contract/step.ts"
import { impliedDependencies, inputReferences } from "./contract/templating.ts"

export type GeneratorRule = "unique" | "inputs" | "skills" | "order" | "references" | "tier" | "outputs"

export interface GeneratorProblem {
  /** The ApiError code: `generator_unknown_skill`... */
  readonly code: GeneratorProblemCode
  readonly message: string
  /** `{ rule, step?, ... }`: what a program needs to point at the fault. */
  readonly details: { readonly rule: GeneratorRule } & Readonly<Record<string, unknown>>
}

/** What validation reads of a generator. */
export type { GeneratorDefinition }

/** The step tiers a generator may use: 'strong' is the planner's and the QA reviewer's. */
export const stepTiers: ReadonlyArray<string> = ["cheap", "standard"]

const problem = (
  code: GeneratorProblemCode,
  rule: GeneratorRule,
  message: string,
  details: Record<string, unknown> = {}
): GeneratorProblem => ({
  code,
  message,
  details: { rule, ...details }
})

/** Every skill a step names: its own, and the ones its contract's build or authoring check reads. */
const skillsOf = (step: GeneratorStep): Array<string> => [
  ...step.skills,
  ...(step.deliverable?.build === undefined ? [] : [step.deliverable.build.skill]),
  ...(step.deliverable?.authored === undefined ? [] : [authoringSkillOf(step.deliverable.authored)])
]

const uniqueIds = (steps: ReadonlyArray<GeneratorStep>): GeneratorProblem | null => {
  const seen = new Set<string>()
  for (const step of steps) {
    if (seen.has(step.id))
      return problem(
        "generator_duplicate_id",
        "unique",
        `Two steps have the id "${step.id}"; step ids must be unique.`,
        { step: step.id }
      )
    seen.add(step.id)
  }
  return null
}

const usableForm = (generator: GeneratorDefinition): GeneratorProblem | null => {
  const why = inputsSchemaProblem(generator.inputsSchema)
  if (why !== null)
    return problem("generator_invalid_input_schema", "inputs", `The input form is not usable JSON Schema: ${why}.`, {
      reason: why
    })
  const fields = inputFields(generator.inputsSchema)
  for (const step of generator.steps) {
    const unknown = inputReferences(step).find((name) => !fields.includes(name))
    if (unknown !== undefined) {
      return problem(
        "generator_unknown_input",
        "inputs",
        `Step "${step.id}" reads {{inputs.${unknown}}}, but the form has no field "${unknown}".`,
        { step: step.id, input: unknown }
      )
    }
  }
  return null
}

const knownSkills = (steps: ReadonlyArray<GeneratorStep>, catalogue: ReadonlySet<string>): GeneratorProblem | null => {
  for (const step of steps) {
    const unknown = skillsOf(step).find((skill) => !catalogue.has(skill))
    if (unknown !== undefined) {
      return problem(
        "generator_unknown_skill",
        "skills",
        `Step "${step.id}" uses "${unknown}", which is not in the built-in skill catalogue.`,
        { step: step.id, skill: unknown }
      )
    }
  }
  return null
}

/** Why `id` is not an earlier step of step `index`, or null when it is. */
const notEarlier = (steps: ReadonlyArray<GeneratorStep>, index: number, id: string): string | null => {
  if (steps.slice(0, index).some((step) => step.id === id)) return null
  if (steps[index].id === id) return "itself"
  return steps.some((step) => step.id === id) ? `the later step "${id}"` : `"${id}", which is no step of this generator`
}

const earlierDependencies = (steps: ReadonlyArray<GeneratorStep>): GeneratorProblem | null => {
  for (const [index, step] of steps.entries()) {
    for (const id of step.dependsOn) {
      const why = notEarlier(steps, index, id)
      if (why !== null) {
        return problem(
          "generator_forward_dependency",
          "order",
          `Step "${step.id}" depends on ${why}; a step may depend only on earlier steps.`,
          { step: step.id, dependsOn: id }
        )
      }
    }
  }
  return null
}

const backedReferences = (steps: ReadonlyArray<GeneratorStep>): GeneratorProblem | null => {
  for (const [index, step] of steps.entries()) {
    for (const id of impliedDependencies(step)) {
      const why = notEarlier(steps, index, id)
      if (why !== null) {
        return problem(
          "generator_unbacked_reference",
          "references",
          `Step "${step.id}" reads {{steps.${id}.output}} from ${why}; only an earlier step's output can be read.`,
          { step: step.id, reference: id }
        )
      }
    }
  }
  return null
}

const allowedTiers = (steps: ReadonlyArray<GeneratorStep>): GeneratorProblem | null => {
  const step = steps.find((candidate) => !stepTiers.includes(candidate.tier))
  if (step === undefined) return null
  const why =
    step.tier === "strong"
      ? "'strong' is reserved for the planner and the QA reviewer"
      : `'${step.tier}' is not a tier for a step's agent`
  return problem(
    "generator_step_tier",
    "tier",
    `Step "${step.id}" asks for the ${step.tier} tier: ${why}. Use 'cheap' or 'standard'.`,
    { step: step.id, tier: step.tier }
  )
}

const producedOutputs = (generator: GeneratorDefinition): GeneratorProblem | null => {
  const missing = generator.outputKinds.find((kind) => !generator.steps.some((step) => step.outputKind === kind))
  if (missing === undefined) return null
  return problem(
    "generator_undeclared_output",
    "outputs",
    `The generator declares the output kind "${missing}", but no step produces it.`,
    { outputKind: missing }
  )
}

/** The first rule the generator breaks, or null when it passes. */
export const validateGenerator = (
  generator: GeneratorDefinition,
  catalogue: ReadonlySet<string>
): GeneratorProblem | null =>
  uniqueIds(generator.steps) ??
  usableForm(generator) ??
  knownSkills(generator.steps, catalogue) ??
  earlierDependencies(generator.steps) ??
  backedReferences(generator.steps) ??
  allowedTiers(generator.steps) ??
  producedOutputs(generator)
