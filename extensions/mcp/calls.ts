/**
 * Where the SDK's Promise code calls the node: a tool call or a resource read is put in a mailbox and answered by a
 * fiber of the node's scope, which runs it as a fiber of its own (calls run side by side) and settles the SDK's
 * promise with its exit. So no effect is run outside Effect here (test/unit/shape/run-sites.test.ts), and a call still
 * running when the node stops is interrupted with it.
 */
import * as Effect from "effect/Effect"
import type * as Exit from "effect/Exit"
import * as Queue from "effect/Queue"

export class McpCalls extends Effect.Service<McpCalls>()("mcp/McpCalls", {
  scoped: Effect.gen(function* () {
    const mailbox = yield* Queue.unbounded<Effect.Effect<void>>()
    const scope = yield* Effect.scope
    yield* Effect.forkScoped(Effect.forever(Effect.flatMap(Queue.take(mailbox), (call) => Effect.forkIn(call, scope))))
    yield* Effect.addFinalizer(() => Queue.shutdown(mailbox))

    /** The effect's exit, as a promise for the SDK. */
    const perform = <A, E>(effect: Effect.Effect<A, E>): Promise<Exit.Exit<A, E>> =>
      new Promise((resolve) => {
        Queue.unsafeOffer(
          mailbox,
          Effect.flatMap(Effect.exit(effect), (exit) => Effect.sync(() => resolve(exit)))
        )
      })

    return { perform } as const
  })
}) {}
