/**
 * A generator's input form, read from its JSON Schema: one `FormField` for each property, in the
 * schema's order, with what the form shows (title as label, description as help, `x-placeholder`,
 * required marks), what the browser checks (minLength, maxLength, minimum, maximum), where the
 * field goes (`x-advanced`: under Advanced) and when it shows (`x-showWhen`: while that boolean
 * field is set). `valuesOf` reads a filled form back as the values the schema types.
 *
 * The schema comes from the node as JSON, so it is read defensively: a keyword of the wrong type
 * is ignored, and a property this form cannot offer (an array, an object) is `unsupported` and
 * said so rather than dropped in silence. Ajv on the node stays the judge of the inputs.
 */
import { absurd } from "effect/Function"

interface FieldBase {
  /** The property's name: the form control's `name`, and the key of its value. */
  readonly name: string
  readonly label: string
  /** The description, or "". */
  readonly help: string
  readonly required: boolean
  readonly advanced: boolean
  /** The boolean field that shows this one while set, or null. */
  readonly showWhen: string | null
}

export interface TextField extends FieldBase {
  readonly kind: "text" | "multiline"
  readonly placeholder: string
  readonly minLength: number | null
  readonly maxLength: number | null
  readonly initial: string
}

export interface NumberField extends FieldBase {
  readonly kind: "number"
  readonly integer: boolean
  readonly placeholder: string
  readonly min: number | null
  readonly max: number | null
  /** The native `step`: 1 for an integer, the schema's multipleOf, or "any". */
  readonly step: string
  readonly initial: number | null
}

export interface BooleanField extends FieldBase {
  readonly kind: "boolean"
  readonly initial: boolean
}

export interface ChoiceOption {
  readonly value: unknown
  readonly label: string
}

export interface ChoiceField extends FieldBase {
  readonly kind: "choice"
  readonly options: ReadonlyArray<ChoiceOption>
  /** The index of the option chosen at first (the default), or null for none. */
  readonly initial: number | null
}

export interface UnsupportedField extends FieldBase {
  readonly kind: "unsupported"
  /** The schema's type, in its own word ("array", "object", …). */
  readonly type: string
}

export type FormField = TextField | NumberField | BooleanField | ChoiceField | UnsupportedField

type Json = Readonly<Record<string, unknown>>

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value)

const stringOf = (value: unknown): string | null => (typeof value === "string" ? value : null)

const numberOf = (value: unknown): number | null => (typeof value === "number" && Number.isFinite(value) ? value : null)

/** `"integer"`, or the first type of a list that is not "null" (`["string", "null"]` is a string). */
const typeOf = (property: Json): string => {
  const type = property.type
  if (typeof type === "string") return type
  if (Array.isArray(type)) return type.find((item): item is string => typeof item === "string" && item !== "null") ?? ""
  return ""
}

/** An enum's value in words: a string as it is, anything else as JSON. */
const optionLabel = (value: unknown): string => (typeof value === "string" ? value : JSON.stringify(value))

const fieldOf = (name: string, property: Json, required: boolean): FormField => {
  const base: FieldBase = {
    name,
    label: stringOf(property.title)?.trim() || name,
    help: stringOf(property.description) ?? "",
    required,
    advanced: property["x-advanced"] === true,
    showWhen: stringOf(property["x-showWhen"])
  }
  const placeholder = stringOf(property["x-placeholder"]) ?? ""
  if (Array.isArray(property.enum)) {
    const options = property.enum.map((value): ChoiceOption => ({ value, label: optionLabel(value) }))
    const initial = "default" in property ? property.enum.findIndex((value) => Object.is(value, property.default)) : -1
    return { ...base, kind: "choice", options, initial: initial === -1 ? null : initial }
  }
  const type = typeOf(property)
  switch (type) {
    case "string":
      return {
        ...base,
        kind: property["x-multiline"] === true ? "multiline" : "text",
        placeholder,
        minLength: numberOf(property.minLength),
        maxLength: numberOf(property.maxLength),
        initial: stringOf(property.default) ?? ""
      }
    case "integer":
    case "number": {
      const integer = type === "integer"
      const exclusiveMin = numberOf(property.exclusiveMinimum)
      const exclusiveMax = numberOf(property.exclusiveMaximum)
      const multipleOf = numberOf(property.multipleOf)
      return {
        ...base,
        kind: "number",
        integer,
        placeholder,
        // An exclusive bound is a native one only for whole numbers; otherwise the node checks it.
        min: numberOf(property.minimum) ?? (integer && exclusiveMin !== null ? Math.floor(exclusiveMin) + 1 : null),
        max: numberOf(property.maximum) ?? (integer && exclusiveMax !== null ? Math.ceil(exclusiveMax) - 1 : null),
        step: multipleOf !== null ? String(multipleOf) : integer ? "1" : "any",
        initial: numberOf(property.default)
      }
    }
    case "boolean":
      return { ...base, kind: "boolean", initial: property.default === true }
    default:
      return { ...base, kind: "unsupported", type: type === "" ? "unknown" : type }
  }
}

/** The form's fields, in the schema's order; none when the schema is not an object schema with properties. */
export const fieldsOf = (schema: unknown): ReadonlyArray<FormField> => {
  if (!isObject(schema) || !isObject(schema.properties)) return []
  const required = new Set(
    Array.isArray(schema.required) ? schema.required.filter((name) => typeof name === "string") : []
  )
  return Object.entries(schema.properties)
    .filter((entry): entry is [string, Json] => isObject(entry[1]))
    .map(([name, property]) => fieldOf(name, property, required.has(name)))
}

/**
 * The fields showing `values` first (an earlier run's inputs, to run it again) instead of the
 * schema's defaults, wherever a value fits its field; one that does not (the form changed since)
 * keeps the default.
 */
export const withValues = (
  fields: ReadonlyArray<FormField>,
  values: Readonly<Record<string, unknown>>
): ReadonlyArray<FormField> =>
  fields.map((field): FormField => {
    if (!Object.hasOwn(values, field.name)) return field
    const value = values[field.name]
    switch (field.kind) {
      case "text":
      case "multiline":
        return typeof value === "string" ? { ...field, initial: value } : field
      case "number":
        return typeof value === "number" && Number.isFinite(value) ? { ...field, initial: value } : field
      case "boolean":
        return typeof value === "boolean" ? { ...field, initial: value } : field
      case "choice": {
        const index = field.options.findIndex((option) => Object.is(option.value, value))
        return index === -1 ? field : { ...field, initial: index }
      }
      case "unsupported":
        return field
      default:
        return absurd(field)
    }
  })

/** What an input's value says to a person: a choice by its label, a checkbox as Yes or No, text as it is. */
export const valueInWords = (field: FormField | undefined, value: unknown): string => {
  if (typeof value === "boolean") return value ? "Yes" : "No"
  if (field?.kind === "choice") {
    const option = field.options.find((candidate) => Object.is(candidate.value, value))
    if (option !== undefined) return option.label
  }
  return typeof value === "string" ? value : JSON.stringify(value)
}

/**
 * Whether `field` shows, given the boolean fields' current values: its switch is set and shows
 * itself (a switch that is hidden sends nothing, so what it shows is hidden too).
 */
export const isShown = (
  field: FormField,
  fields: ReadonlyArray<FormField>,
  switches: ReadonlyMap<string, boolean>
): boolean => {
  const seen = new Set<string>()
  let current: FormField | undefined = field
  while (current !== undefined && current.showWhen !== null) {
    if (seen.has(current.name) || switches.get(current.showWhen) !== true) return false
    seen.add(current.name)
    const switchName: string = current.showWhen
    current = fields.find((candidate) => candidate.name === switchName)
  }
  return true
}

/** The boolean fields' values before the person touches anything (what `x-showWhen` reads first). */
export const initialSwitches = (fields: ReadonlyArray<FormField>): ReadonlyMap<string, boolean> =>
  new Map(fields.flatMap((field) => (field.kind === "boolean" ? [[field.name, field.initial] as const] : [])))

/** Words for the limits the browser checks, shown under a field: "From 300 to 3000.", "At most 200 characters." */
export const limitsInWords = (field: FormField): string => {
  if (field.kind === "number") {
    if (field.min !== null && field.max !== null) return `From ${field.min} to ${field.max}.`
    if (field.min !== null) return `At least ${field.min}.`
    if (field.max !== null) return `At most ${field.max}.`
    return ""
  }
  if (field.kind === "text" || field.kind === "multiline") {
    if (field.minLength !== null && field.maxLength !== null)
      return `${field.minLength} to ${field.maxLength} characters.`
    if (field.minLength !== null) return `At least ${field.minLength} characters.`
    if (field.maxLength !== null) return `At most ${field.maxLength} characters.`
  }
  return ""
}

type Control = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement

const controlOf = (form: HTMLFormElement, name: string): Control | null => {
  const control = form.elements.namedItem(name)
  return control instanceof HTMLInputElement ||
    control instanceof HTMLTextAreaElement ||
    control instanceof HTMLSelectElement
    ? control
    : null
}

/**
 * The filled form's values, typed as the schema says: text as strings, numbers as numbers,
 * checkboxes as booleans, a choice as its enum value. An empty field and a hidden one (its
 * control is disabled) are left out, so the node fills the form's default for it; a required
 * one cannot be empty, the browser saw to that.
 */
export const valuesOf = (fields: ReadonlyArray<FormField>, form: HTMLFormElement): Record<string, unknown> => {
  const values: Record<string, unknown> = {}
  for (const field of fields) {
    if (field.kind === "unsupported") continue
    const control = controlOf(form, field.name)
    if (control === null || control.disabled) continue
    if (field.kind === "boolean") {
      values[field.name] = control instanceof HTMLInputElement && control.checked
      continue
    }
    if (control.value === "") continue
    if (field.kind === "number") values[field.name] = Number(control.value)
    else if (field.kind === "choice") values[field.name] = field.options[Number(control.value)]?.value
    else values[field.name] = control.value
  }
  return values
}
