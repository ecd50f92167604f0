/**
 * Word targets are rendered once, at plan time, against the project's inputs. A target that does
 * not come out as a positive number (a missing field, a pick like "short", text) disables the
 * words check rather than failing the run: the spec says so, and the person filling in the form
 * cannot repair a template.
 */
import type { DeliverableContract, PlannedContract, ResolvedWordBudget, WordBudget } from "../contract/deliverable.ts"

const inputReference = /\{\{\s*inputs\.([A-Za-z0-9_$-]+)\s*\}\}/g

/** A plain decimal; anything else (units, words, expressions) is not a word count. */
const decimal = /^\d+(?:\.\d+)?$/

const inputText = (inputs: unknown, field: string): string | null => {
  if (typeof inputs !== "object" || inputs === null || Array.isArray(inputs) || !Object.hasOwn(inputs, field))
    return null
  const value: unknown = (inputs as Record<string, unknown>)[field]
  return typeof value === "number" || typeof value === "string" ? String(value) : null
}

/** The target as a positive safe integer, or null when the check is disabled. */
export const renderWordTarget = (target: WordBudget["target"], inputs: unknown): number | null => {
  if (typeof target === "number") return target
  let unresolved = false
  const rendered = target
    .replace(inputReference, (_, field: string) => {
      const text = inputText(inputs, field)
      if (text === null) unresolved = true
      return text ?? ""
    })
    .trim()
  if (unresolved || !decimal.test(rendered)) return null
  const words = Math.round(Number(rendered))
  return Number.isSafeInteger(words) && words > 0 ? words : null
}

export const resolveWordBudget = (budget: WordBudget, inputs: unknown): ResolvedWordBudget | null => {
  const target = renderWordTarget(budget.target, inputs)
  return target === null ? null : { target, tolerance: budget.tolerance, floor: budget.floor }
}

/** The contract with its word target rendered; a disabled words check is dropped from it. */
export const planContract = (contract: DeliverableContract, inputs: unknown): PlannedContract => {
  const { words, ...rest } = contract
  const resolved = words === undefined ? null : resolveWordBudget(words, inputs)
  return resolved === null ? rest : { ...rest, words: resolved }
}
