/**
 * The `process` capability adapter: the only way a skill or plugin reaches the sandbox. Each is
 * built for one call's scope, so a run inside a project works in that project's workspace.
 */
import * as Effect from "effect/Effect"
import { refusedWithMessage } from "../../kernel/extensions/capability-refused.ts"
import type { CallScope } from "../../kernel/extensions/context.ts"
import type { ProcessAdapter } from "../../kernel/extensions/process.ts"
import { Sandbox } from "./sandbox.ts"

export const processAdapterFactory = Effect.gen(function* () {
  const sandbox = yield* Sandbox
  return (_plugin: unknown, scope: CallScope): ProcessAdapter => ({
    execute: (run) => refusedWithMessage(sandbox.execute(run, { beingId: scope.beingId, projectId: scope.projectId }))
  })
})
