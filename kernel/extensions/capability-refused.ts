/**
 * The one way a capability adapter fails (adapters.ts): a refusal whose message is the plain
 * sentence the caller reads. A built-in's skill maps it to its SkillFailure (`refusedAsSkillFailure`
 * in skill.ts); a plugin in an isolate gets it as the rejection of its promise (isolate/plugin-isolate.ts).
 */
import * as Effect from "effect/Effect"
import { CapabilityRefused } from "../contract/capability-refused.ts"

export { CapabilityRefused }

const messageOf = (cause: unknown) => (cause instanceof Error ? cause.message : String(cause))

export const refused = (message: string) => new CapabilityRefused({ message })

/** Promise work (a Node or library call) as an adapter's Effect: interruption aborts it, a rejection is refused with its message. */
export const refusedUnlessResolved = <A>(run: (signal: AbortSignal) => PromiseLike<A>) =>
  Effect.tryPromise({ try: run, catch: (cause) => refused(messageOf(cause)) })

/** A check of plugin input that throws an Error saying what is wrong: the throw is refused with its message. */
export const refusedUnlessChecked = <A>(check: () => A) =>
  Effect.try({ try: check, catch: (cause) => refused(messageOf(cause)) })

/** A service's failure that says why in words, refused with those words. */
export const refusedWithMessage = <A, E extends { readonly message: string }, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.mapError(effect, (error) => refused(error.message))
