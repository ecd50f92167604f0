/**
 * The `memory` capability as plugins and skills get it, over the twin's Memories: each adapter is
 * built for one call's scope and writes into and recalls from that call's being's twin (the
 * owner's for a plugin's own work outside a call). Plugin code may be plain JavaScript, so what
 * it hands in is checked against the memory schema and refused plainly. A built-in's source is
 * kept (memory.store has already made it `studio:<project id>` inside a project); a third-party
 * plugin's memories are always sourced `plugin:<id>`, so none can pass for the studio or a person.
 * Near-duplicates of what the twin holds are not stored again (stored false, the one it holds).
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import * as Runtime from "effect/Runtime"
import * as Schema from "effect/Schema"
import { MemoryContent, MemoryImportance, MemoryKind, MemorySource, MemoryTags } from "../../kernel/contract/memory.ts"
import { NoOwner } from "./contract/errors.ts"
import type { CallScope, PluginIdentity } from "../../kernel/extensions/context.ts"
import type { MemoryAdapter } from "../../kernel/extensions/memory.ts"
import { Memories } from "./memories.ts"
import { BeingRegistry } from "../accounts/contract/being-registry.ts"
import { pluginSource } from "../desktop/contract/signal-sources.ts"

const NewMemory = Schema.Struct({
  content: MemoryContent,
  kind: MemoryKind,
  importance: MemoryImportance,
  tags: MemoryTags,
  source: MemorySource
})
const RecallQuery = Schema.Struct({
  query: Schema.String.pipe(Schema.maxLength(500)),
  kind: Schema.optionalWith(MemoryKind, { exact: true }),
  limit: Schema.Int.pipe(Schema.between(1, 100))
})

const decodeOrThrow = <A, I>(schema: Schema.Schema<A, I>, what: string) => {
  const decode = Schema.decodeUnknownEither(schema)
  return (input: unknown): A => {
    const decoded = decode(input)
    if (Either.isLeft(decoded))
      throw new Error(`${what} refused: ${ParseResult.TreeFormatter.formatErrorSync(decoded.left)}`)
    return decoded.right
  }
}
const newMemoryOf = decodeOrThrow(NewMemory, "memory.store")
const recallQueryOf = decodeOrThrow(RecallQuery, "memory.recall")

/** `builtinIds`: the plugins whose memories keep the source they give. */
export const memoryAdapterFactory = (builtinIds: ReadonlySet<string>) =>
  Effect.gen(function* () {
    const memories = yield* Memories
    const accounts = yield* BeingRegistry
    const runPromise = Runtime.runPromise(yield* Effect.runtime<never>())

    const ownerId = Effect.flatMap(
      accounts.findOwner,
      Option.match({
        onNone: () => Effect.fail(new NoOwner({ message: "This node has no owner yet, so no twin to remember in." })),
        onSome: (owner) => Effect.succeed(owner.id)
      })
    )

    /** Runs for the call's being; a refusal becomes an Error with its plain message. */
    const run = async <A>(effect: Effect.Effect<A, { readonly message: string }>, signal?: AbortSignal) => {
      const outcome = await runPromise(Effect.either(effect), signal === undefined ? undefined : { signal })
      if (Either.isLeft(outcome)) throw new Error(outcome.left.message)
      return outcome.right
    }

    return (plugin: PluginIdentity, scope: CallScope): MemoryAdapter => {
      const being = scope.beingId === null ? ownerId : Effect.succeed(scope.beingId)
      const builtin = builtinIds.has(plugin.id)
      return {
        store: async (input) => {
          const memory = newMemoryOf(input)
          const sourced = builtin ? memory : { ...memory, source: pluginSource(plugin) }
          return run(Effect.flatMap(being, (beingId) => memories.store(beingId, sourced, { skipNearDuplicates: true })))
        },
        recall: async ({ signal, ...input }) => {
          const { query, kind, limit } = recallQueryOf(input)
          const search = { q: query, limit, ...(kind === undefined ? {} : { kind }) }
          return run(
            Effect.map(
              Effect.flatMap(being, (beingId) => memories.search(beingId, search)),
              (found) => found.memories
            ),
            signal
          )
        }
      }
    }
  })
