/**
 * A generator's step (the spec's GeneratorStep) and the output kinds. What a step's artefact must
 * satisfy is the pipeline's DeliverableContract, used here as it is. Defaults are applied when a
 * step is decoded, so a stored step carries every field. Plain schemas only: the HTTP contract
 * (and so the web app) imports this file.
 */
import * as Schema from "effect/Schema"
import { ModelTier } from "../../models/contract/records.ts"
import { DeliverableContract } from "../../../actors/project/contract/deliverable.ts"

export const outputKinds = [
  "text",
  "markdown",
  "docx",
  "pdf",
  "image",
  "code",
  "react-app",
  "fullstack-app",
  "html",
  "scene3d",
  "data",
  "zip"
] as const
export const OutputKind = Schema.Literal(...outputKinds)
export type OutputKind = typeof OutputKind.Type

/** What `{{steps.<id>.output}}` can name: letters, digits, _ and -, starting with a letter. */
export const stepIdPattern = /^[A-Za-z][A-Za-z0-9_-]{0,39}$/

export const GeneratorStep = Schema.Struct({
  id: Schema.String.pipe(
    Schema.pattern(stepIdPattern, {
      message: () => "a step id of 1 to 40 letters, digits, _ or -, starting with a letter"
    })
  ),
  /** Templated. */
  title: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200)),
  /** The role of the agent that performs it (`researcher`, `writer`...). */
  role: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(60)),
  skills: Schema.Array(Schema.String.pipe(Schema.maxLength(200))).pipe(Schema.maxItems(32)),
  /** Templated. */
  instruction: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(8000)),
  tier: Schema.optionalWith(ModelTier, { default: () => "cheap" }),
  dependsOn: Schema.optionalWith(Schema.Array(Schema.String).pipe(Schema.maxItems(24)), { default: () => [] }),
  outputKind: Schema.optionalWith(OutputKind, { default: () => "markdown" }),
  deliverable: Schema.optionalWith(DeliverableContract, { exact: true })
})
export type GeneratorStep = typeof GeneratorStep.Type
