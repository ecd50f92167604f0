/** llm.generate (its schema is ours): text from one of the node's model tiers, charged to the caller. */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { defineSkill, refusedAsSkillFailure } from "../../kernel/extensions/skill.ts"
import { llmOf, perCallTimeoutMs, prompt, system, tier } from "./fields.ts"

const Input = Schema.Struct({
  prompt,
  system,
  tier,
  maxTokens: Schema.optionalWith(Schema.Int.pipe(Schema.between(1, 32_000)), { exact: true })
})

const Output = Schema.Struct({
  text: Schema.String,
  model: Schema.String.annotations({ description: "The model that answered." }),
  costUsd: Schema.Number
})

export const generate = defineSkill({
  description: "Ask a model (the 'cheap' or 'standard' tier) for text from a prompt and optional instructions.",
  input: Input,
  output: Output,
  timeoutMs: perCallTimeoutMs,
  run: (input, context) => Effect.flatMap(llmOf(context), (llm) => refusedAsSkillFailure(llm.generate(input)))
})
