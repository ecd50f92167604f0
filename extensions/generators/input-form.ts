/**
 * A generator's input form is plain JSON Schema (draft-07) with four hints of ours: `x-multiline`
 * (a textarea), `x-placeholder`, `x-advanced` (folded under Advanced) and `x-showWhen` (the name of
 * a boolean field that shows this one). Ajv checks a form when a generator is saved and checks
 * the inputs of a run against it, filling the form's defaults.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv"
import type { CheckedInputs, InputIssue } from "./contract/generators.ts"

const fieldName = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/

/**
 * Strict about keywords (an unknown one, such as a misspelt `minLenght`, is refused rather than
 * ignored), lenient about type hints that draft-07 allows. One instance, made at first use: a new
 * one compiles draft-07's meta-schema first, about 10 ms each time (a start checked every seeded
 * form with its own). Forms come from members, so each is forgotten after use (`withForm`): Ajv
 * would keep every schema it compiled, and a second form with the same `$id` would be refused.
 */
let shared: Ajv | undefined
const ajvOf = (): Ajv => (shared ??= newAjv())

const newAjv = () => {
  const ajv = new Ajv({
    allErrors: true,
    useDefaults: true,
    strict: true,
    strictTypes: false,
    strictTuples: false,
    strictRequired: false
  })
  ajv.addKeyword({ keyword: "x-multiline", schemaType: "boolean" })
  ajv.addKeyword({ keyword: "x-placeholder", schemaType: "string" })
  ajv.addKeyword({ keyword: "x-advanced", schemaType: "boolean" })
  ajv.addKeyword({ keyword: "x-showWhen", schemaType: "string" })
  return ajv
}

/**
 * Validators of the forms compiled lately, by the form's text: a buy copies a generator and a run checks its inputs,
 * each against a form compiled before (compiling one is about a millisecond, a twentieth of a buy's CPU in session
 * 20's profile). Bounded, the oldest forgotten first; a form that does not compile is not kept.
 */
const compiled = new Map<string, ValidateFunction>()
const compiledKept = 256

const validatorOf = (schema: Readonly<Record<string, unknown>>): ValidateFunction => {
  const key = JSON.stringify(schema)
  const found = compiled.get(key)
  if (found !== undefined) return found
  const ajv = ajvOf()
  try {
    const validate = ajv.compile(schema)
    if (compiled.size >= compiledKept) compiled.delete(compiled.keys().next().value!)
    compiled.set(key, validate)
    return validate
  } finally {
    // The validator stands on its own: the form leaves Ajv's registry whatever happened.
    ajv.removeSchema(schema)
  }
}

/** Hands the form's validator to `use`; throws what compiling the form threw. */
const withForm = <A>(schema: Readonly<Record<string, unknown>>, use: (validate: ValidateFunction) => A): A =>
  use(validatorOf(schema))

type Properties = Record<string, Record<string, unknown>>

const propertiesOf = (schema: Readonly<Record<string, unknown>>): Properties =>
  typeof schema.properties === "object" && schema.properties !== null ? (schema.properties as Properties) : {}

/** The form's field names: what `{{inputs.<field>}}` may name. */
export const inputFields = (schema: Readonly<Record<string, unknown>>): Array<string> =>
  Object.keys(propertiesOf(schema))

/** Why the form cannot be used, or null when it can. */
export const inputsSchemaProblem = (schema: Readonly<Record<string, unknown>>): string | null => {
  if (schema.type !== "object") return 'the form must be a JSON Schema with type "object"'
  try {
    withForm(schema, () => null)
  } catch (error) {
    return error instanceof Error ? error.message : String(error)
  }
  const properties = propertiesOf(schema)
  for (const [name, field] of Object.entries(properties)) {
    if (!fieldName.test(name))
      return `the field name "${name}" cannot be used in a template (letters, digits, _ or -, starting with a letter or _)`
    const showWhen = field["x-showWhen"]
    if (typeof showWhen === "string" && properties[showWhen]?.type !== "boolean") {
      return `x-showWhen of "${name}" must name a boolean field of the same form, not "${showWhen}"`
    }
  }
  return null
}

export type { CheckedInputs, InputIssue } from "./contract/generators.ts"

const issueOf = (error: ErrorObject): InputIssue => ({
  path: error.instancePath,
  message: error.message ?? "is not valid"
})

/** A run's inputs against the generator's form (which was checked when it was saved); defaults filled. */
export const checkInputs = (schema: Readonly<Record<string, unknown>>, inputs: unknown): CheckedInputs => {
  const copy: unknown = structuredClone(inputs)
  return withForm(schema, (validate) =>
    validate(copy)
      ? { ok: true, inputs: copy as Record<string, unknown> }
      : { ok: false, issues: (validate.errors ?? []).map(issueOf) }
  )
}
