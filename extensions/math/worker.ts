/**
 * The worker thread math.evaluate runs expressions in. mathjs evaluates synchronously, so an
 * expression such as zeros(1e5, 1e5) would block the node's event loop or exhaust its memory;
 * here it can only block or kill this worker, which the main thread times out and replaces.
 * The functions that reach beyond arithmetic (import, createUnit, nested evaluate/parse/compile
 * and the symbolic ones) are disabled, as mathjs's security notes advise, and every expression
 * gets a fresh scope.
 */
import { all, create, type MathType } from "mathjs"
import { parentPort } from "node:worker_threads"

export interface EvaluateRequest {
  readonly id: number
  readonly expression: string
}

export type EvaluateReply =
  | { readonly id: number; readonly ok: true; readonly result: string; readonly value: number; readonly type: string }
  | { readonly id: number; readonly ok: false; readonly error: string }

const math = create(all)
const evaluate = math.evaluate.bind(math)

const disabled = (name: string) => () => {
  throw new Error(`${name} is disabled in math.evaluate`)
}
math.import(
  Object.fromEntries(
    [
      "import",
      "createUnit",
      "evaluate",
      "parse",
      "compile",
      "simplify",
      "simplifyConstant",
      "simplifyCore",
      "derivative",
      "resolve",
      "rationalize",
      "reviver"
    ].map((name) => [name, disabled(name)])
  ),
  { override: true }
)

/** The one real number a result stands for, or why it has none. */
const numberOf = (value: unknown, type: string): number | string => {
  if (typeof value === "number") return value
  if (typeof value === "boolean") return value ? 1 : 0
  if (math.isBigNumber(value) || math.isFraction(value)) return Number(value.valueOf())
  if (math.isComplex(value) && value.im === 0) return value.re
  if (math.isUnit(value)) {
    return value.value === null ? "a unit without a value" : value.toNumber(value.formatUnits())
  }
  return `a ${type}`
}

const describe = (id: number, raw: unknown): EvaluateReply => {
  const value = math.isResultSet(raw) ? raw.entries.at(-1) : raw
  if (value === undefined) return { id, ok: false, error: "The expression has no value (it only assigns)." }
  const type = math.typeOf(value)
  const result = typeof value === "function" ? "a function" : math.format(value as MathType, { precision: 14 })
  const number = numberOf(value, type)
  if (typeof number === "string")
    return { id, ok: false, error: `The result is ${number}, not a single real number: ${result}` }
  if (!Number.isFinite(number)) return { id, ok: false, error: `The result is not a finite number: ${result}` }
  return { id, ok: true, result, value: number, type }
}

parentPort?.on("message", ({ id, expression }: EvaluateRequest) => {
  let reply: EvaluateReply
  try {
    reply = describe(id, evaluate(expression, new Map()))
  } catch (error) {
    reply = { id, ok: false, error: error instanceof Error ? error.message : String(error) }
  }
  parentPort?.postMessage(reply)
})
parentPort?.postMessage("ready")
