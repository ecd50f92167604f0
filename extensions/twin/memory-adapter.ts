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
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { refused, refusedWithMessage } from "../../kernel/extensions/capability-refused.ts"
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

const decodeOrRefuse = <A, I>(schema: Schema.Schema<A, I>, what: string) => {
  const decode = Schema.decodeUnknown(schema)
  return (input: unknown) =>
    Effect.mapError(decode(input), (error) =>
      refused(`${what} refused: ${ParseResult.TreeFormatter.formatErrorSync(error)}`)
    )
}
const newMemoryOf = decodeOrRefuse(NewMemory, "memory.store")
const recallQueryOf = decodeOrRefuse(RecallQuery, "memory.recall")

/** `builtinIds`: the plugins whose memories keep the source they give. */
export const memoryAdapterFactory = (builtinIds: ReadonlySet<string>) =>
  Effect.gen(function* () {
    const memories = yield* Memories
    const accounts = yield* BeingRegistry

    const ownerId = Effect.flatMap(
      accounts.findOwner,
      Option.match({
        onNone: () => Effect.fail(new NoOwner({ message: "This node has no owner yet, so no twin to remember in." })),
        onSome: (owner) => Effect.succeed(owner.id)
      })
    )

    return (plugin: PluginIdentity, scope: CallScope): MemoryAdapter => {
      const being = scope.beingId === null ? ownerId : Effect.succeed(scope.beingId)
      const builtin = builtinIds.has(plugin.id)
      return {
        store: (input) =>
          Effect.gen(function* () {
            const memory = yield* newMemoryOf(input)
            const sourced = builtin ? memory : { ...memory, source: pluginSource(plugin) }
            return yield* refusedWithMessage(
              Effect.flatMap(being, (beingId) => memories.store(beingId, sourced, { skipNearDuplicates: true }))
            )
          }),
        recall: (input) =>
          Effect.gen(function* () {
            const { query, kind, limit } = yield* recallQueryOf(input)
            const search = { q: query, limit, ...(kind === undefined ? {} : { kind }) }
            const found = yield* refusedWithMessage(
              Effect.flatMap(being, (beingId) => memories.search(beingId, search))
            )
            return found.memories
          })
      }
    }
  })
