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
import * as ParseResult from "effect/ParseResult"
import * as Predicate from "effect/Predicate"
import * as Schema from "effect/Schema"
import { RefusalStatus } from "../../kernel/contract/errors.ts"
import { refused } from "../../kernel/extensions/capability-refused.ts"
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

    /** Decodes as the route does, then writes; the services' refusals (400s) are the answers. */
    const author =
      <A, I>(schema: Schema.Schema<A, I>, write: (input: A) => Effect.Effect<Written, unknown>) =>
      (input: AuthoringInput) =>
        Schema.decodeUnknown(schema)(input, { errors: "all", onExcessProperty: "error" }).pipe(
          Effect.mapError((error) =>
            refused(`The record does not fit: ${ParseResult.TreeFormatter.formatErrorSync(error)}`)
          ),
          Effect.flatMap((decoded) =>
            write(decoded).pipe(
              Effect.map((written): Authored => ({ authored: true, id: written.id, name: written.name })),
              Effect.catchAll((left) =>
                Predicate.hasProperty(left, RefusalStatus) && left[RefusalStatus] === 400 && left instanceof Error
                  ? Effect.succeed<Authored>({ authored: false, reason: left.message })
                  : Effect.fail(refused(left instanceof Error ? left.message : "the studio could not write the record"))
              )
            )
          )
        )

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
