/**
 * Templating of a generator's steps (their title and instruction, as the spec says).
 * `{{inputs.<field>}}` is the value of a form field; `{{steps.<id>.output}}` is the text output of
 * an earlier step and makes the step depend on it. Anything else between braces is left as
 * written: an instruction may hold code with `{{ }}`.
 *
 * Rendering happens twice in a run: at plan time with the inputs and no outputs (a step reference
 * then stays as written), and when the task starts, with its dependencies' outputs. A contract's
 * word target is a template of inputs too; the pipeline renders it to a number (it reads
 * `renderTemplate`'s rules).
 */
import type { GeneratorStep } from "./step.ts"

const reference = /\{\{\s*(?:inputs\.([A-Za-z_][A-Za-z0-9_-]*)|steps\.([A-Za-z][A-Za-z0-9_-]*)\.output)\s*\}\}/g

const referencesIn = (texts: ReadonlyArray<string>, group: 1 | 2): Array<string> => {
  const found: Array<string> = []
  for (const text of texts) {
    for (const match of text.matchAll(reference)) {
      const name = match[group]
      if (name !== undefined && !found.includes(name)) found.push(name)
    }
  }
  return found
}

/** The steps whose output this step's title or instruction reads, in order of first mention. */
export const impliedDependencies = (step: GeneratorStep): Array<string> =>
  referencesIn([step.title, step.instruction], 2)

/** The form fields this step reads: in its title, its instruction and its contract's word target. */
export const inputReferences = (step: GeneratorStep): Array<string> => {
  const target = step.deliverable?.words?.target
  return referencesIn(
    typeof target === "string" ? [step.title, step.instruction, target] : [step.title, step.instruction],
    1
  )
}

/** Explicit dependencies first, then the implied ones they do not already name. */
export const allDependencies = (step: GeneratorStep): Array<string> => [
  ...step.dependsOn,
  ...impliedDependencies(step).filter((id) => !step.dependsOn.includes(id))
]

/** How a form value reads inside text: absent is empty, a list is comma-separated. */
const asText = (value: unknown): string => {
  if (value === undefined || value === null) return ""
  if (typeof value === "string") return value
  if (typeof value === "number" || typeof value === "boolean") return String(value)
  if (Array.isArray(value)) return value.map(asText).join(", ")
  return JSON.stringify(value)
}

/**
 * Replaces every reference in one text. A field missing from `inputs` renders empty (an optional
 * field left blank); a step missing from `outputsById` stays as written, to be filled later.
 */
export const renderTemplate = (
  text: string,
  inputs: Readonly<Record<string, unknown>>,
  outputsById: Readonly<Record<string, string>>
): string =>
  text.replace(reference, (whole, input: string | undefined, step: string | undefined) => {
    if (input !== undefined) return asText(inputs[input])
    return step !== undefined && Object.hasOwn(outputsById, step) ? outputsById[step] : whole
  })

/**
 * The step with its title and instruction rendered and its implied dependencies added to
 * `dependsOn`. Render from the generator's own step each time, never from a rendered one: a
 * second pass over rendered text would also fill references that a person typed into a form value.
 */
export const renderStep = (
  step: GeneratorStep,
  inputs: Readonly<Record<string, unknown>>,
  outputsById: Readonly<Record<string, string>>
): GeneratorStep => ({
  ...step,
  title: renderTemplate(step.title, inputs, outputsById),
  instruction: renderTemplate(step.instruction, inputs, outputsById),
  dependsOn: allDependencies(step)
})
