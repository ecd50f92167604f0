/**
 * The generators feature's refusals: each its own tag for callers, its status and code (docs/api.md)
 * fixed for the wire.
 */
import { refusal } from "../../../kernel/contract/errors.ts"

/** No generator the caller may see has that id (or slug). */
export class GeneratorNotFound extends refusal(404, "GeneratorNotFound", "not_found") {}
/** Someone else's private generator was asked for. */
export class GeneratorPrivate extends refusal(403, "GeneratorPrivate", "forbidden") {}
/** A change to a generator by someone who is neither its owner nor the node's. */
export class GeneratorNotYours extends refusal(403, "GeneratorNotYours", "forbidden") {}
/** A written slug another generator holds already. */
export class GeneratorSlugTaken extends refusal(400, "GeneratorSlugTaken", "generator_duplicate_slug") {}

/** Two steps of a generator share an id. */
export class GeneratorDuplicateStepId extends refusal(400, "GeneratorDuplicateStepId", "generator_duplicate_id") {}
/** A generator's input form is not usable JSON Schema. */
export class GeneratorInvalidInputSchema extends refusal(
  400,
  "GeneratorInvalidInputSchema",
  "generator_invalid_input_schema"
) {}
/** A step reads an input the form has no field for. */
export class GeneratorUnknownInput extends refusal(400, "GeneratorUnknownInput", "generator_unknown_input") {}
/** A step uses a skill the catalogue does not hold. */
export class GeneratorUnknownSkill extends refusal(400, "GeneratorUnknownSkill", "generator_unknown_skill") {}
/** A step depends on a later step, itself, or no step. */
export class GeneratorForwardDependency extends refusal(
  400,
  "GeneratorForwardDependency",
  "generator_forward_dependency"
) {}
/** A step reads the output of a step that is not earlier. */
export class GeneratorUnbackedReference extends refusal(
  400,
  "GeneratorUnbackedReference",
  "generator_unbacked_reference"
) {}
/** A step asks for a tier a step's agent may not use. */
export class GeneratorStepTier extends refusal(400, "GeneratorStepTier", "generator_step_tier") {}
/** A declared output kind no step produces. */
export class GeneratorUndeclaredOutput extends refusal(
  400,
  "GeneratorUndeclaredOutput",
  "generator_undeclared_output"
) {}

/** The refusal of each rule of the spec's validation, by its code. */
export const generatorInvalid = {
  generator_duplicate_id: GeneratorDuplicateStepId,
  generator_invalid_input_schema: GeneratorInvalidInputSchema,
  generator_unknown_input: GeneratorUnknownInput,
  generator_unknown_skill: GeneratorUnknownSkill,
  generator_forward_dependency: GeneratorForwardDependency,
  generator_unbacked_reference: GeneratorUnbackedReference,
  generator_step_tier: GeneratorStepTier,
  generator_undeclared_output: GeneratorUndeclaredOutput
} as const

/** A code of the spec's validation. */
export type GeneratorProblemCode = keyof typeof generatorInvalid

/** A generator that breaks a rule of the spec's validation. */
export type GeneratorInvalid = InstanceType<(typeof generatorInvalid)[GeneratorProblemCode]>
