/**
 * Whether a skill is registered and an input fits it, read from the contribution registries
 * alone. Apart from the skill runtime (skills.ts), which needs the extension host, so that a
 * capability adapter the host is built with can check a skill without a cycle: the `schedule`
 * adapter holds a timed skill run only if it would run, and the adapter -> SkillCheck ->
 * LoadedContributions chain never reaches the host (which only writes them).
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { UnknownSkill } from "../contract/skill-errors.ts"
import { LoadedContributions, type Contribution, type Registries } from "./registry.ts"

export const formatIssues = (error: ParseResult.ParseError) =>
  ParseResult.ArrayFormatter.formatErrorSync(error)
    .map((issue) => (issue.path.length === 0 ? issue.message : `${issue.path.join(".")}: ${issue.message}`))
    .join("; ")

/** The input decoded by the skill's schema, or why it does not fit. */
export const decodeSkillInput = (skill: Contribution<"skill">, input: unknown) =>
  Schema.decodeUnknownEither(skill.value.input)(input, { errors: "all", onExcessProperty: "error" }).pipe(
    Either.mapLeft((error) => `The input does not fit ${skill.name}: ${formatIssues(error)}`)
  )

/** The skill registered under the name, or `unknown_skill`. */
export const registeredSkill = (registries: Registries, name: string) => {
  const skill = registries.skill.get(name)
  return skill === undefined
    ? Effect.fail(new UnknownSkill({ message: `No skill named "${name}" is registered.`, details: { name } }))
    : Effect.succeed(skill)
}

export interface SkillCheckShape {
  /** Null when the skill exists and the input fits it; else why not. */
  readonly check: (name: string, input: unknown) => Effect.Effect<string | null, UnknownSkill>
}

export const checkSkill =
  (registries: Registries): SkillCheckShape["check"] =>
  (name, input) =>
    Effect.map(registeredSkill(registries, name), (skill) =>
      Either.match(decodeSkillInput(skill, input), { onLeft: (problem) => problem, onRight: () => null })
    )

export class SkillCheck extends Context.Tag("kernel/SkillCheck")<SkillCheck, SkillCheckShape>() {
  static readonly layer = Layer.effect(
    SkillCheck,
    Effect.map(LoadedContributions, ({ registries }) => ({ check: checkSkill(registries) }))
  )
}
