/** math.evaluate: the first document gives its schema in full. */
import * as Schema from "effect/Schema"
import { defineSkill } from "../../kernel/extensions/skill.ts"
import { evaluateExpression } from "./evaluator.ts"

const Input = Schema.Struct({
  expression: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(2000)).annotations({
    description: "A mathjs expression, e.g. 'sqrt(2) * 3', '5 cm to inch', 'a = 2; a ^ 10'."
  })
})

const Output = Schema.Struct({
  result: Schema.String.annotations({ description: "The result as mathjs formats it (14 significant digits)." }),
  value: Schema.Number.annotations({
    description: "The result as one number (a unit's value in its own unit; true is 1)."
  }),
  type: Schema.String.annotations({
    description: "mathjs's type of the result: number, BigNumber, Fraction, Unit, boolean..."
  })
})

export const evaluate = defineSkill({
  description: "Evaluate a math expression (arithmetic, functions, units, fractions) and answer one real number.",
  input: Input,
  output: Output,
  run: async (input, context) => {
    const { result, value, type } = await evaluateExpression(input.expression, context.signal)
    return { result, value, type }
  }
})
