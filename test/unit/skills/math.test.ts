import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startSkills, type SkillHarness } from "../../support/skills.ts"
import { at } from "../../support/json.ts"

let skills: SkillHarness
beforeAll(async () => {
  skills = await startSkills()
})
afterAll(() => skills.close())

const evaluate = (expression: string) => skills.invoke("math.evaluate", { expression })

describe("math.evaluate", () => {
  it("answers the result as text, as one number, and its type", async () => {
    expect((await evaluate("2 + 3 * 4")).output).toEqual({ result: "14", value: 14, type: "number" })
    expect((await evaluate("sqrt(2)")).output).toEqual({ result: "1.4142135623731", value: Math.SQRT2, type: "number" })
    expect((await evaluate("a = 3; a ^ 2")).output).toMatchObject({ value: 9 })
    expect((await evaluate("5 cm to mm")).output).toEqual({ result: "50 mm", value: 50, type: "Unit" })
    expect((await evaluate("fraction(1, 3) + fraction(1, 6)")).output).toEqual({
      result: "1/2",
      value: 0.5,
      type: "Fraction"
    })
    expect((await evaluate("3 > 2")).output).toEqual({ result: "true", value: 1, type: "boolean" })
  })

  it("refuses what reaches beyond arithmetic: import, createUnit, nested evaluate and parse", async () => {
    for (const expression of [
      "import({ x: 1 }, { override: true })",
      'createUnit("foo")',
      'evaluate("1 + 1")',
      'parse("1 + 1")'
    ]) {
      const outcome = await evaluate(expression)
      expect(outcome, expression).toMatchObject({ ok: false, error: expect.stringContaining("is disabled") })
    }
    expect(at((await evaluate("1 + 1")).output, "value")).toBe(2)
  })

  it("gives each expression a fresh scope", async () => {
    await evaluate("leaked = 41")
    expect(await evaluate("leaked + 1")).toMatchObject({
      ok: false,
      error: expect.stringContaining("Undefined symbol leaked")
    })
  })

  it("says plainly when there is no single real number or the expression is wrong", async () => {
    expect(await evaluate("[1, 2] + 1")).toMatchObject({
      ok: false,
      error: "The result is a DenseMatrix, not a single real number: [2, 3]"
    })
    expect(await evaluate("1 / 0")).toMatchObject({ ok: false, error: "The result is not a finite number: Infinity" })
    expect(await evaluate("2 +")).toMatchObject({
      ok: false,
      error: expect.stringContaining("Unexpected end of expression")
    })
  })

  it("stops an expression that computes too long, and the next one works", async () => {
    // About 10^8 interpreted calls in little memory: minutes of work, whatever the machine.
    const fib = "fib(n) = n < 2 ? n : fib(n - 1) + fib(n - 2); fib(40)"
    expect(await evaluate(fib)).toMatchObject({ ok: false, error: "The expression took longer than 3 seconds." })
    expect(at((await evaluate("2 ^ 10")).output, "value")).toBe(1024)
  })

  it("survives an expression that would exhaust memory: it fails, and the next one works", async () => {
    expect(await evaluate("zeros(100000, 100000)")).toMatchObject({
      ok: false,
      error: "The expression needs more memory than math.evaluate allows."
    })
    expect(at((await evaluate("6 * 7")).output, "value")).toBe(42)
  })
})
