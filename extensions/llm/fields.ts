/** What llm.generate and llm.structured share: their prompt fields, the tiers a skill may ask for, the adapter. */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { llmTiers, type LlmAdapter } from "../../kernel/extensions/llm.ts"
import { SkillFailure, withDefault, type SkillRunContext } from "../../kernel/extensions/skill.ts"

export const prompt = Schema.String.pipe(
  Schema.filter((text) => text.trim() !== "" || "a prompt"),
  Schema.maxLength(200_000)
)

export const system = Schema.optionalWith(
  Schema.String.pipe(Schema.maxLength(20_000)).annotations({
    description: "Instructions the model reads before the prompt."
  }),
  { exact: true }
)

export const tier = withDefault(
  Schema.Literal(...llmTiers).annotations({ description: "'strong' is reserved for the node's planner and QA." }),
  "standard"
)

/** A model call may take the provider's whole time limit (LLM_TIMEOUT_MS, 120 s by default), and a little more. */
export const perCallTimeoutMs = 140_000

export const llmOf = (context: SkillRunContext): Effect.Effect<LlmAdapter, SkillFailure> => {
  const llm = context.adapters.llm
  return llm === undefined ? new SkillFailure({ message: "llm is not wired on this node yet." }) : Effect.succeed(llm)
}
