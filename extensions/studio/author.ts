/**
 * studio.author_agent and studio.author_generator. Their inputs are the bodies of
 * POST /api/studio/agents and POST /api/studio/generators (plain contract schemas, so what an agent
 * may author is exactly what a person may create, and an ownerId is refused as an unknown field).
 * Their output is the report the pipeline's authored check reads (`authoringSkillOf` in
 * studio/pipeline/checks.ts): a refusal (an unknown skill, a broken generator rule) is an answer,
 * authored false with the reason in `note` and nothing written, not a failed call.
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import type { Authored, AuthoringAdapter, AuthoringInput } from "./authoring-capability.ts"
import type { CapabilityRefused } from "../../kernel/extensions/capability-refused.ts"
import type { StorageAdapter } from "../../kernel/extensions/storage-adapter.ts"
import { defineSkill, refusedAsSkillFailure, type SkillFailure } from "../../kernel/extensions/skill.ts"
import { AgentInput } from "../agents/contract/agent.ts"
import { GeneratorInput } from "../generators/contract/generator.ts"

const AuthoredReport = Schema.Struct({
  authored: Schema.Boolean,
  id: Schema.NullOr(Schema.String).annotations({ description: "The id of the row written; null when nothing was." }),
  name: Schema.String,
  note: Schema.String
})
type AuthoredReport = typeof AuthoredReport.Type

const notWired = "studio authoring is not wired on this node."

/** The authoring operations of a storage adapter: present for the studio's own calls only. */
const authoringOf = (storage: StorageAdapter | undefined): AuthoringAdapter | undefined =>
  storage?.createAgent === undefined || storage.createGenerator === undefined
    ? undefined
    : { createAgent: storage.createAgent, createGenerator: storage.createGenerator }

const authoringSkill = <A extends AuthoringInput & { readonly name: string }, I>(skill: {
  readonly description: string
  readonly input: Schema.Schema<A, I>
  readonly kind: "agent" | "generator"
  readonly create: (adapter: AuthoringAdapter, input: A) => Effect.Effect<Authored, CapabilityRefused>
}) =>
  defineSkill({
    description: skill.description,
    input: skill.input,
    output: AuthoredReport,
    run: (input, context) => {
      const adapter = authoringOf(context.adapters.storage)
      const authored: Effect.Effect<Authored, SkillFailure> =
        adapter === undefined
          ? Effect.succeed({ authored: false, reason: notWired })
          : refusedAsSkillFailure(skill.create(adapter, input))
      return Effect.map(authored, (outcome) => {
        const report: AuthoredReport = outcome.authored
          ? {
              authored: true,
              id: outcome.id,
              name: outcome.name,
              note: `Saved the ${skill.kind} "${outcome.name}" to the studio.`
            }
          : { authored: false, id: null, name: input.name, note: `Nothing was written: ${outcome.reason}` }
        context.trace({
          kind: report.authored ? "message" : "error",
          text: report.authored
            ? `${skill.kind} authored: "${report.name}"`
            : `${skill.kind} not authored: ${report.note}`,
          data: report
        })
        return report
      })
    }
  })

export const authorAgent = authoringSkill({
  description:
    "Author an agent (a role card: name, role, skills, tier, system prompt), saved to the studio of the person you " +
    "work for. Every skill it names must be registered on this node: one unknown name refuses the whole call and nothing is saved.",
  input: AgentInput,
  kind: "agent",
  create: (adapter, input) => adapter.createAgent(input)
})

export const authorGenerator = authoringSkill({
  description:
    "Author a generator (a reusable recipe of steps with an input form), saved to the studio of the person you work for. " +
    "It must pass the generator rules: built-in catalogue skills only, each step depending only on earlier steps, 'cheap' or " +
    "'standard' tiers, every declared output kind produced. A broken rule refuses the whole call and nothing is saved.",
  input: GeneratorInput,
  kind: "generator",
  create: (adapter, input) => adapter.createGenerator(input)
})
