/**
 * Reading into JSON a contract leaves open (`Schema.Unknown`: a skill's output, a JSON Schema):
 * `at(value, "a", 0, "b")` is `value.a[0].b`, or undefined as soon as a step is missing.
 */
export const at = (value: unknown, ...path: ReadonlyArray<string | number>): unknown =>
  path.reduce<unknown>(
    (node, key) =>
      typeof node === "object" && node !== null ? (node as Record<string | number, unknown>)[key] : undefined,
    value
  )
