/**
 * llm.structured (its schema is ours): JSON from a model that fits the caller's JSON Schema. The
 * adapter checks the answer and gives the model one repair, told the validator's exact errors;
 * an answer still wrong after it fails the call with those errors.
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { defineSkill, refusedAsSkillFailure, withDefault } from "../../kernel/extensions/skill.ts"
import { llmOf, perCallTimeoutMs, prompt, system, tier } from "./fields.ts"

const Input = Schema.Struct({
  prompt,
  system,
  schema: Schema.Record({ key: Schema.String, value: Schema.Unknown }).annotations({
    description:
      "The JSON Schema (draft-07; 2019-09 or 2020-12 when its $schema says so) the answer must fit. `format` is not checked."
  }),
  name: withDefault(
    Schema.String.pipe(Schema.pattern(/^[A-Za-z0-9_-]{1,64}$/)).annotations({
      description: "Names the schema to the model."
    }),
    "answer"
  ),
  tier
})

const Output = Schema.Struct({
  value: Schema.Unknown.annotations({ description: "The answer, valid against the schema." }),
  model: Schema.String,
  costUsd: Schema.Number.annotations({ description: "Of both calls when a repair was needed." }),
  repaired: Schema.Boolean.annotations({ description: "The first answer did not fit; the one repair did." })
})

export const structured = defineSkill({
  description: "Ask a model for JSON that fits a JSON Schema; the answer is validated, with one repair try.",
  input: Input,
  output: Output,
  timeoutMs: 2 * perCallTimeoutMs,
  run: (input, context) => Effect.flatMap(llmOf(context), (llm) => refusedAsSkillFailure(llm.structured(input)))
})
