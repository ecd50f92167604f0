/**
 * The `process` capability adapter: the only way a skill or plugin reaches the sandbox. Each is
 * built for one call's scope, so a run inside a project works in that project's workspace.
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Runtime from "effect/Runtime"
import type { CallScope } from "../../kernel/extensions/context.ts"
import type { ProcessAdapter } from "../../kernel/extensions/process.ts"
import { Sandbox } from "./sandbox.ts"

export const processAdapterFactory = Effect.gen(function* () {
  const sandbox = yield* Sandbox
  const runPromise = Runtime.runPromise(yield* Effect.runtime<never>())
  return (_plugin: unknown, scope: CallScope): ProcessAdapter => ({
    execute: async (run) => {
      const ran = await runPromise(
        Effect.either(sandbox.execute(run, { beingId: scope.beingId, projectId: scope.projectId }))
      )
      if (Either.isLeft(ran)) throw new Error(ran.left.message)
      return ran.right
    }
  })
})
