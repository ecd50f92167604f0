/**
 * The `storage` capability as the studio family gets it: agents and generators written through
 * the same Agents and Generators services as POST /api/studio/agents and /api/studio/generators,
 * owned by the being of the call the adapter was built for. Only the studio plugin (by its id,
 * which no other plugin can take) gets it; every other plugin granted `storage` finds it absent,
 * and so does the studio's own `activate`, which serves no being.
 *
 * The factory takes the Agents and Generators services through their contract tags. They read
 * what the extension host loaded through the kernel's LoadedContributions, not through the host,
 * so the host (which builds this adapter) comes after them and no late binding is needed.
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Predicate from "effect/Predicate"
import * as Runtime from "effect/Runtime"
import * as Schema from "effect/Schema"
import { RefusalStatus } from "../../kernel/contract/errors.ts"
import type { Authored, AuthoringAdapter, AuthoringInput } from "./authoring-capability.ts"
import type { CallScope, PluginIdentity } from "../../kernel/extensions/context.ts"
import { AgentInput } from "../agents/contract/agent.ts"
import { Agents } from "../agents/contract/agents.ts"
import { GeneratorInput } from "../generators/contract/generator.ts"
import { Generators } from "../generators/contract/generators.ts"

interface Written {
  readonly id: string
  readonly name: string
}

/** `authorId`: the studio plugin's id. */
export const authoringAdapterFactory = (authorId: string) =>
  Effect.gen(function* () {
    const agents = yield* Agents
    const generators = yield* Generators
    const runPromise = Runtime.runPromise(yield* Effect.runtime<never>())

    /** Decodes as the route does, then writes; the services' refusals (400s) are the answers. */
    const author =
      <A, I>(schema: Schema.Schema<A, I>, write: (input: A) => Effect.Effect<Written, unknown>) =>
      async (input: AuthoringInput): Promise<Authored> => {
        const decoded = Schema.decodeUnknownEither(schema)(input, { errors: "all", onExcessProperty: "error" })
        if (Either.isLeft(decoded))
          throw new Error(`The record does not fit: ${ParseResult.TreeFormatter.formatErrorSync(decoded.left)}`)
        const outcome = await runPromise(Effect.either(write(decoded.right)))
        if (Either.isRight(outcome)) return { authored: true, id: outcome.right.id, name: outcome.right.name }
        const left = outcome.left
        if (Predicate.hasProperty(left, RefusalStatus) && left[RefusalStatus] === 400 && left instanceof Error)
          return { authored: false, reason: left.message }
        throw new Error(outcome.left instanceof Error ? outcome.left.message : "the studio could not write the record")
      }

    return (plugin: PluginIdentity, scope: CallScope): AuthoringAdapter | undefined => {
      const ownerId = scope.beingId
      if (plugin.id !== authorId || ownerId === null) return undefined
      return {
        createAgent: author(AgentInput, (input) => agents.create(ownerId, input)),
        // Creating asks nothing of the owner's powers (they matter for editing others' generators).
        createGenerator: author(GeneratorInput, (input) =>
          generators.create({ beingId: ownerId, isOwner: false }, input)
        )
      }
    }
  })
