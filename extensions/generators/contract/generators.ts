/**
 * The Generators service as other features call it (the studio's `storage` adapter, the project
 * actor's runs, the market's copies); extensions/generators/generators.ts provides it. Its
 * refusals are the feature's own (./errors.ts); a storage fault is a defect.
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import type {
  GeneratorInvalid,
  GeneratorNotFound,
  GeneratorNotYours,
  GeneratorPrivate,
  GeneratorSlugTaken
} from "./errors.ts"
import type { Caller } from "../../accounts/contract/session.ts"
import type { Generator, GeneratorInput, GeneratorPlugin, GeneratorSummary } from "./generator.ts"

/** What the spec's validation reads of a generator. */
export type GeneratorDefinition = Pick<GeneratorInput, "inputsSchema" | "steps" | "outputKinds">

export interface InputIssue {
  /** The field, as a JSON pointer (`/length`); empty for the whole form. */
  readonly path: string
  readonly message: string
}

/** A run's inputs checked against a generator's form: the inputs with defaults filled, or the issues. */
export type CheckedInputs =
  | { readonly ok: true; readonly inputs: Record<string, unknown> }
  | { readonly ok: false; readonly issues: ReadonlyArray<InputIssue> }

export interface GeneratorsShape {
  /** The spec's validation against the built-in catalogue (and a plugin generator's own plugin's skills). */
  readonly check: (
    generator: GeneratorDefinition & { readonly plugin?: GeneratorPlugin | undefined }
  ) => Effect.Effect<void, GeneratorInvalid>
  /** Public generators and the caller's own, then the plugins'; runs are the caller's. */
  readonly list: (caller: Caller) => Effect.Effect<ReadonlyArray<GeneratorSummary>>
  /** By id, else by slug, if the caller may see it. */
  readonly find: (caller: Caller, idOrSlug: string) => Effect.Effect<Generator, GeneratorNotFound | GeneratorPrivate>
  readonly create: (
    caller: Caller,
    input: GeneratorInput
  ) => Effect.Effect<Generator, GeneratorInvalid | GeneratorSlugTaken | GeneratorNotFound>
  readonly replace: (
    caller: Caller,
    id: string,
    input: GeneratorInput
  ) => Effect.Effect<Generator, GeneratorInvalid | GeneratorSlugTaken | GeneratorNotFound | GeneratorNotYours>
  readonly remove: (caller: Caller, id: string) => Effect.Effect<void, GeneratorNotFound | GeneratorNotYours>
  /** Writes one seeded generator by its slug; false when a being's generator holds the slug. */
  readonly upsertSeed: (slug: string, input: GeneratorInput) => Effect.Effect<boolean>
  /** A run's inputs against the generator's form, defaults filled. */
  readonly checkInputs: (generator: Generator, inputs: unknown) => CheckedInputs
  /** A stored generator by id as `callerId` sees its runs, whoever owns it: the market checks the seller itself. */
  readonly stored: (callerId: string, id: string) => Effect.Effect<Option.Option<Generator>>
}

export class Generators extends Context.Tag("generators/Generators")<Generators, GeneratorsShape>() {}
