/**
 * The smallest plausible value of a JSON Schema, so the demo models (and the scripted test server)
 * can answer a structured call nobody scripted with JSON of the asked shape.
 * Covers what response formats use: objects, arrays, enums, consts, primitives, anyOf/oneOf, local $refs.
 */

type JsonSchema = Readonly<Record<string, unknown>>

/** `at(value, "a", 0, "b")` is `value.a[0].b`, or undefined as soon as a step is missing. */
const at = (value: unknown, path: ReadonlyArray<string>): unknown =>
  path.reduce<unknown>(
    (node, key) => (typeof node === "object" && node !== null ? (node as Record<string, unknown>)[key] : undefined),
    value
  )

const isSchema = (value: unknown): value is JsonSchema =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/**
 * A subschema, or {} where there is none. A boolean subschema (`items: false`) has no example
 * to give: the call is answered with an error, so a structured call on such a schema is not
 * answered by a made-up value that might pass.
 */
const schemaAt = (value: unknown): JsonSchema => {
  if (value === undefined || value === null) return {}
  if (!isSchema(value)) throw new Error(`no example for the subschema ${JSON.stringify(value)}`)
  return value
}

const resolve = (schema: JsonSchema, root: JsonSchema): JsonSchema => {
  if (typeof schema.$ref !== "string" || !schema.$ref.startsWith("#/")) return schema
  const path = schema.$ref
    .slice(2)
    .split("/")
    .map((key) => key.replace(/~1/g, "/").replace(/~0/g, "~"))
  return schemaAt(at(root, path))
}

const numberAt = (schema: JsonSchema, key: string): number | undefined => {
  const value = schema[key]
  return typeof value === "number" ? value : undefined
}

const exampleAt = (input: JsonSchema, root: JsonSchema, depth: number): unknown => {
  const schema = resolve(input, root)
  if (depth > 8) return null
  if ("const" in schema) return schema.const
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0]
  if ("default" in schema) return schema.default
  const alternatives = schema.anyOf ?? schema.oneOf
  if (Array.isArray(alternatives) && alternatives.length > 0)
    return exampleAt(schemaAt(alternatives[0]), root, depth + 1)
  const type = Array.isArray(schema.type) ? (schema.type.find((t) => t !== "null") ?? "null") : schema.type
  switch (type ?? (schema.properties ? "object" : schema.items ? "array" : "string")) {
    case "object": {
      const properties = schemaAt(schema.properties)
      const required = Array.isArray(schema.required) ? schema.required.map(String) : Object.keys(properties)
      return Object.fromEntries(required.map((key) => [key, exampleAt(schemaAt(properties[key]), root, depth + 1)]))
    }
    case "array":
      return Array.from({ length: Math.max(1, numberAt(schema, "minItems") ?? 1) }, () =>
        exampleAt(schemaAt(schema.items), root, depth + 1)
      )
    case "integer":
    case "number":
      return numberAt(schema, "minimum") ?? 0
    case "boolean":
      return false
    case "null":
      return null
    default:
      return "example".padEnd(numberAt(schema, "minLength") ?? 0, "x")
  }
}

export const exampleOf = (schema: JsonSchema): unknown => exampleAt(schema, schema, 0)
