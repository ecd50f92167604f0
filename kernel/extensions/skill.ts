/**
 * The skill contribution: a typed function with validated input and output (the first
 * document's Skills). A plugin hands `{ description, input, output, run }`; its full name
 * `<namespace>.<id>` and whether it acts on the world (its extension `uses` 'world-acting') come
 * from the manifest, never from the value, so a plugin cannot slip past the approval gate.
 */
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as JSONSchema from "effect/JSONSchema"
import * as Schema from "effect/Schema"
import type { GrantedAdapters } from "./adapters.ts"
import type { CapabilityRefused } from "./capability-refused.ts"
import type { FileRoot } from "./file-root.ts"

export const traceKinds = ["plan", "think", "tool.call", "tool.result", "message", "output", "error", "done"] as const
export type TraceKind = (typeof traceKinds)[number]

export interface SkillTraceEvent {
  readonly kind: TraceKind
  readonly text: string
  readonly data?: unknown
}

/** Handed to `run` for one call. */
export interface SkillRunContext {
  readonly beingId: string
  /** The project the call runs in, or null outside one. */
  readonly projectId: string | null
  /** The call's one file root; present only when the skill's extension uses 'filesystem'. */
  readonly files: FileRoot | undefined
  /** Aborted when the call times out or its caller gives up: pass it to whatever waits. */
  readonly signal: AbortSignal
  /** Adds to the project's trace; goes nowhere outside a running project. */
  readonly trace: (event: SkillTraceEvent) => void
  /**
   * The plugin's granted adapters narrowed to the extension's `uses`, built for this call: they act
   * for `beingId` and `projectId` (the model calls charged, the memory written). An absent one is undefined.
   */
  readonly adapters: GrantedAdapters
}

/** A skill's own refusal; its message is what the caller reads (`{ ok: false, error }`). */
export class SkillFailure extends Data.TaggedError("SkillFailure")<{ readonly message: string }> {}

/** An adapter's refusal as the skill's own failure, in the same words. */
export const refusedAsSkillFailure = <A, R>(effect: Effect.Effect<A, CapabilityRefused, R>) =>
  Effect.mapError(effect, (refusal) => new SkillFailure({ message: refusal.message }))

/**
 * A Promise step of a skill's Effect (its file root's, a library's): a throw or rejection fails the call
 * with its message, as it would from a Promise `run`; interruption aborts the signal.
 */
export const skillStep = <A>(step: (signal: AbortSignal) => PromiseLike<A>) =>
  Effect.tryPromise({
    try: step,
    catch: (cause) =>
      cause instanceof SkillFailure
        ? cause
        : new SkillFailure({ message: cause instanceof Error ? cause.message : String(cause) })
  })

/**
 * The call's file root and `target()`, the path a skill will write, checked inside it first: a path out of the root is
 * refused before a model is paid to make what would go there.
 */
export const checkedTarget = (context: SkillRunContext, target: () => string) =>
  skillStep(async () => {
    const root = fileRootOf(context)
    const path = target()
    await root.resolve(path)
    return { root, path }
  })

/** Throwing (or rejecting with) a SkillFailure or any Error fails the call with its message. */
export type SkillRun<I, O> = (input: I, context: SkillRunContext) => Effect.Effect<O, SkillFailure> | PromiseLike<O>

/** The longest a skill may ask to run; the default is `defaultSkillTimeoutMs`. */
export const maxSkillTimeoutMs = 600_000
export const defaultSkillTimeoutMs = 60_000

/**
 * The annotation carrying a JSON Schema published ready-made: a skill of a plugin in an isolate
 * hands its schemas over as JSON Schema (isolate/plugin-isolate.ts), which the host publishes as is.
 */
export const PublishedJsonSchema = Symbol.for("kernel/extensions/PublishedJsonSchema")

/** What a skill's schema publishes: the ready-made JSON Schema, or one made from the Effect Schema. */
export const publishedJsonSchema = (schema: Schema.Schema.AnyNoContext): Record<string, unknown> =>
  (schema.ast.annotations[PublishedJsonSchema] as Record<string, unknown> | undefined) ??
  (JSONSchema.make(schema) as unknown as Record<string, unknown>)

const describable = (what: string) =>
  Schema.declare((value: unknown): value is Schema.Schema.AnyNoContext => Schema.isSchema(value), {
    identifier: "Schema",
    description: `an Effect Schema (effect/Schema) for the ${what}`
  }).pipe(
    Schema.filter((schema) => {
      try {
        publishedJsonSchema(schema)
        return true
      } catch (error) {
        return `the ${what} schema cannot be published as JSON Schema: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`
      }
    })
  )

const RunFunction = Schema.declare((value: unknown): value is SkillRun<any, any> => typeof value === "function", {
  identifier: "run",
  description: "a function (input, context) returning an Effect or a Promise of the output"
})

export const SkillContribution = Schema.Struct({
  description: Schema.String.pipe(Schema.filter((text) => text.trim() !== "" || "a skill needs a description")),
  input: describable("input"),
  output: describable("output"),
  timeoutMs: Schema.optionalWith(Schema.Int.pipe(Schema.between(1, maxSkillTimeoutMs)), { exact: true }),
  run: RunFunction
})
export type SkillContribution = typeof SkillContribution.Type

/** Types `run`'s input and output from the schemas; what a TypeScript plugin passes to `contribute`. */
export const defineSkill = <I, IE, O, OE>(skill: {
  readonly description: string
  readonly input: Schema.Schema<I, IE>
  readonly output: Schema.Schema<O, OE>
  readonly timeoutMs?: number
  readonly run: SkillRun<I, O>
}): SkillContribution => skill

/** An optional input field that shows its default in the published JSON Schema. */
export const withDefault = <A, I>(schema: Schema.Schema<A, I>, value: NoInfer<A>) =>
  Schema.optionalWith(schema.annotations({ default: value }), { default: () => value })

/** The call's file root, or a plain failure for a skill whose extension does not use 'filesystem'. */
export const fileRootOf = (context: SkillRunContext): FileRoot => {
  if (context.files === undefined) {
    throw new SkillFailure({
      message: "This skill has no file root: its extension does not use the 'filesystem' capability."
    })
  }
  return context.files
}
