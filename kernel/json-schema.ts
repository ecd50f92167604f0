/**
 * Checking an answer against a caller's JSON Schema with ajv. The schema comes from a caller (a
 * plugin, an agent), so it is bounded in size and compiled by a fresh ajv each time: ajv keeps
 * every schema object it compiles, which a long-lived instance would do for every call. ajv is
 * loaded at the first check, not at boot.
 */
import type { ErrorObject } from "ajv"

const maxSchemaChars = 32_000

/** The validator's errors for a value, each as `<JSON pointer> <what is wrong>`; none when it fits. */
export type SchemaCheck = (value: unknown) => ReadonlyArray<string>

const validatorClass = async (schema: { readonly [key: string]: unknown }) => {
  const declared = typeof schema.$schema === "string" ? schema.$schema : ""
  if (declared.includes("2020-12")) return (await import("ajv/dist/2020.js")).Ajv2020
  if (declared.includes("2019-09")) return (await import("ajv/dist/2019.js")).Ajv2019
  return (await import("ajv")).Ajv
}

const describe = (error: ErrorObject): string => {
  const where = error.instancePath === "" ? "(root)" : error.instancePath
  const detail =
    error.keyword === "additionalProperties"
      ? ` ('${String(error.params.additionalProperty)}')`
      : error.keyword === "enum"
        ? `: ${JSON.stringify(error.params.allowedValues)}`
        : ""
  return `${where} ${error.message ?? "is not valid"}${detail}`
}

const sizeOf = (schema: unknown) => {
  try {
    return JSON.stringify(schema).length
  } catch {
    return Number.POSITIVE_INFINITY
  }
}

/** Rejects with a plain Error when the schema is too large, not JSON, or not a JSON Schema. */
export const compileJsonSchema = async (schema: { readonly [key: string]: unknown }): Promise<SchemaCheck> => {
  if (sizeOf(schema) > maxSchemaChars)
    throw new Error(`The schema must be JSON of at most ${maxSchemaChars} characters.`)
  const Validator = await validatorClass(schema)
  // `format` needs a plugin the node does not carry: it is not checked, and not warned about on the console.
  const ajv = new Validator({ allErrors: true, strict: false, logger: false, validateFormats: false })
  let validate: ReturnType<typeof ajv.compile>
  try {
    validate = ajv.compile(schema)
  } catch (error) {
    throw new Error(`The schema is not a valid JSON Schema: ${error instanceof Error ? error.message : String(error)}`)
  }
  return (value) => (validate(value) ? [] : (validate.errors ?? []).map(describe))
}
