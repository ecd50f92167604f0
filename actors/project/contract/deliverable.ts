/**
 * The deliverable contract of a step (what its artefact must satisfy) and the report of checking
 * it, exactly as the spec defines them. Generator steps carry a DeliverableContract; a task's output
 * holds its DeliverableReport. Imported by subpath only, because the HTTP contract reuses them.
 */
import * as Schema from "effect/Schema"

/** A safe integer in [min, max]: `Schema.Int` already refuses unsafe integers, NaN and infinities. */
const safeInt = (min: number, max = Number.MAX_SAFE_INTEGER) => Schema.Int.pipe(Schema.between(min, max))

const fraction = Schema.Number.pipe(Schema.between(0, 1))

/**
 * A word target is a number, or a template rendered against the project inputs at plan time
 * (word-target.ts); the checks only ever see the rendered number.
 */
export const WordTarget = Schema.Union(safeInt(1), Schema.String.pipe(Schema.minLength(1)))
export type WordTarget = typeof WordTarget.Type

export const WordBudget = Schema.Struct({
  target: WordTarget,
  /** The fraction either side of target that still counts. */
  tolerance: Schema.optionalWith(fraction, { default: () => 0.2 }),
  floor: Schema.optionalWith(safeInt(0), { default: () => 0 })
})
export type WordBudget = typeof WordBudget.Type

export const BuildArtefact = Schema.Struct({
  entry: Schema.optionalWith(Schema.String, { default: () => "apps/web/dist/index.html" }),
  skill: Schema.optionalWith(Schema.String, { default: () => "code.scaffold_react_node" }),
  logChars: Schema.optionalWith(safeInt(0, 20_000), { default: () => 900 })
})
export type BuildArtefact = typeof BuildArtefact.Type

export const AuthoredKind = Schema.Literal("agent", "generator", "skill-bundle", "module-bundle")
export type AuthoredKind = typeof AuthoredKind.Type

export const AuthoredArtefact = Schema.Struct({
  kind: AuthoredKind,
  min: Schema.optionalWith(safeInt(1, 24), { default: () => 1 }),
  /** Without it, the kind's own authoring skill (checks.ts `authoringSkillOf`). */
  skill: Schema.optionalWith(Schema.String, { exact: true })
})
export type AuthoredArtefact = typeof AuthoredArtefact.Type

export const DeliverableContract = Schema.Struct({
  file: Schema.optionalWith(Schema.String, { exact: true }),
  words: Schema.optionalWith(WordBudget, { exact: true }),
  /** Required frontmatter keys. */
  frontmatter: Schema.optionalWith(Schema.Array(Schema.String), { default: () => [] }),
  minSourceLinks: Schema.optionalWith(safeInt(0), { default: () => 0 }),
  requireSections: Schema.optionalWith(Schema.Array(Schema.String), { default: () => [] }),
  forbidOpeners: Schema.optionalWith(Schema.Array(Schema.String), { default: () => [] }),
  /** The earlier file this step revises. */
  revises: Schema.optionalWith(Schema.String, { exact: true }),
  build: Schema.optionalWith(BuildArtefact, { exact: true }),
  authored: Schema.optionalWith(AuthoredArtefact, { exact: true }),
  minRetainedWords: Schema.optionalWith(fraction, { default: () => 0.85 }),
  minRetainedLinks: Schema.optionalWith(fraction, { default: () => 1 }),
  maxRepairs: Schema.optionalWith(safeInt(0, 2), { default: () => 1 })
})
export type DeliverableContract = typeof DeliverableContract.Type

/** A word budget once its target is rendered: what the checks see (pipeline/word-target.ts renders it). */
export const ResolvedWordBudget = Schema.Struct({
  target: safeInt(1),
  tolerance: fraction,
  floor: safeInt(0)
})
export type ResolvedWordBudget = typeof ResolvedWordBudget.Type

/**
 * A contract as a task holds it from plan time on: its word target rendered against the inputs,
 * or the words check dropped when the target did not come out as a number.
 */
export const PlannedContract = Schema.Struct({
  ...DeliverableContract.fields,
  words: Schema.optionalWith(ResolvedWordBudget, { exact: true })
})
export type PlannedContract = typeof PlannedContract.Type

export const AuthoredRecord = Schema.Struct({
  kind: AuthoredKind,
  id: Schema.optionalWith(Schema.NullOr(Schema.String), { default: () => null }),
  name: Schema.optionalWith(Schema.String, { default: () => "" }),
  ok: Schema.optionalWith(Schema.Boolean, { default: () => true }),
  note: Schema.optionalWith(Schema.String, { default: () => "" })
})
export type AuthoredRecord = typeof AuthoredRecord.Type

/** A failed build is reported as 'empty': there is no artefact to look at. */
export const DeliverableFailureCode = Schema.Literal(
  "file",
  "words",
  "frontmatter",
  "sources",
  "sections",
  "voice",
  "regression",
  "empty",
  "authored"
)
export type DeliverableFailureCode = typeof DeliverableFailureCode.Type

export const DeliverableFailure = Schema.Struct({
  code: DeliverableFailureCode,
  /** Written for a person, and quoted verbatim in the repair prompt. */
  message: Schema.String
})
export type DeliverableFailure = typeof DeliverableFailure.Type

export const BuildVerdict = Schema.Struct({
  built: Schema.Boolean,
  entry: Schema.NullOr(Schema.String),
  log: Schema.String
})
export type BuildVerdict = typeof BuildVerdict.Type

export const DeliverableReport = Schema.Struct({
  ok: Schema.Boolean,
  file: Schema.optionalWith(Schema.NullOr(Schema.String), { default: () => null }),
  words: safeInt(0),
  sourceLinks: safeInt(0),
  failures: Schema.optionalWith(Schema.Array(DeliverableFailure), { default: () => [] }),
  repairs: Schema.optionalWith(safeInt(0), { default: () => 0 }),
  revertedTo: Schema.optionalWith(Schema.NullOr(Schema.String), { default: () => null }),
  build: Schema.optionalWith(Schema.NullOr(BuildVerdict), { default: () => null }),
  authored: Schema.optionalWith(Schema.Array(AuthoredRecord), { default: () => [] })
})
export type DeliverableReport = typeof DeliverableReport.Type

const authoringSkills: { readonly [K in AuthoredKind]: string } = {
  agent: "studio.author_agent",
  generator: "studio.author_generator",
  "skill-bundle": "studio.author_skill_bundle",
  "module-bundle": "studio.author_module"
}

/** The skill whose invocation authors an artefact: the one the contract names, else its kind's own. */
export const authoringSkillOf = (authored: AuthoredArtefact): string => authored.skill ?? authoringSkills[authored.kind]
