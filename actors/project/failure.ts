/**
 * Why a run stops: a message for a person, which becomes the project's error and the body of the
 * alert on the owner's desktop. A model that cannot be called at all (no key, a spend ceiling)
 * stops the whole run at once: every other step would meet the same refusal.
 */
import * as Data from "effect/Data"
import type { ModelError } from "../../extensions/models/contract/errors.ts"

export class RunFailure extends Data.TaggedError("RunFailure")<{ readonly message: string }> {}

/** The refusals that no other step of the run could get past. */
export const isFatalModelError = (error: ModelError): boolean =>
  error._tag === "ModelsUnavailable" || error._tag === "SpendCeilingReached"

export const runFailureOf = (error: ModelError, during: string) =>
  new RunFailure({ message: `${during}: ${error.message}` })
