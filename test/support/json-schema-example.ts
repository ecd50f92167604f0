/**
 * The smallest plausible value of a JSON Schema, so the scripted model server can answer a
 * structured call nobody scripted (a node run against the CLI server gets JSON of the asked shape).
 * Covers what response formats use: objects, arrays, enums, consts, primitives, anyOf/oneOf, local $refs.
 */
type JsonSchema = { readonly [key: string]: any }

const resolve = (schema: JsonSchema, root: JsonSchema): JsonSchema => {
  if (typeof schema.$ref !== "string" || !schema.$ref.startsWith("#/")) return schema
  const target = schema.$ref
    .slice(2)
    .split("/")
    .reduce<any>((node, key) => node?.[key.replace(/~1/g, "/").replace(/~0/g, "~")], root)
  return target ?? {}
}

const valueOf = (input: JsonSchema, root: JsonSchema, depth: number): unknown => {
  const schema = resolve(input, root)
  if (depth > 8) return null
  if ("const" in schema) return schema.const
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0]
  if ("default" in schema) return schema.default
  const alternatives = schema.anyOf ?? schema.oneOf
  if (Array.isArray(alternatives) && alternatives.length > 0) return valueOf(alternatives[0], root, depth + 1)
  const type = Array.isArray(schema.type) ? schema.type.find((t: string) => t !== "null") ?? "null" : schema.type
  switch (type ?? (schema.properties ? "object" : schema.items ? "array" : "string")) {
    case "object": {
      const properties: JsonSchema = schema.properties ?? {}
      const required: ReadonlyArray<string> = schema.required ?? Object.keys(properties)
      return Object.fromEntries(required.map((key) => [key, valueOf(properties[key] ?? {}, root, depth + 1)]))
    }
    case "array":
      return Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () => valueOf(schema.items ?? {}, root, depth + 1))
    case "integer":
    case "number":
      return schema.minimum ?? 0
    case "boolean":
      return false
    case "null":
      return null
    default:
      return "example".padEnd(schema.minLength ?? 0, "x")
  }
}

export const exampleOf = (schema: JsonSchema): unknown => valueOf(schema, schema, 0)
